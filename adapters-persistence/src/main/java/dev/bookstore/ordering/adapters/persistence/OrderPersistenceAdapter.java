package dev.bookstore.ordering.adapters.persistence;

import dev.bookstore.ordering.application.ordering.OrderRepository;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@link OrderRepository} through the statements of {@link OrderSql}. A new order is only inserted, never read
 * first; lines never change after placing, so an update only touches the status.
 *
 * <p>Optimistic locking: reading an order in a transaction remembers its row's version; updating it in the same
 * transaction changes the row only if it still has that version, else fails with
 * {@link OptimisticLockingFailureException} (409 at the API), so two racing cancels cancel once. The versions are a
 * resource of the transaction, dropped when it completes and set aside while a nested one runs.
 */
@Component
class OrderPersistenceAdapter implements OrderRepository {

    private final OrderSql sql;

    OrderPersistenceAdapter(DataSource dataSource) {
        this.sql = new OrderSql(dataSource);
    }

    @Override
    public void add(Order order) {
        sql.insert(order);
    }

    @Override
    public void update(Order order) {
        VersionsRead read = versionsRead();
        Long version = read == null ? null : read.versions.get(order.id());
        if (version == null) {
            throw new IllegalStateException("order " + order.id()
                    + " was not read in this transaction; update is for orders read in the transaction");
        }
        if (!sql.updateStatus(order, version)) {
            throw new OptimisticLockingFailureException("order " + order.id()
                    + " was changed by another transaction since it was read (version " + version + ")");
        }
        read.versions.put(order.id(), version + 1);
    }

    @Override
    public Optional<Order> findById(OrderId id) {
        return sql.find(id).map(found -> {
            VersionsRead read = versionsRead();
            if (read != null) {
                read.versions.put(id, found.version());
            }
            return found.order();
        });
    }

    @Override
    public List<Order> findRecent(int limit) {
        return sql.newestFirst(limit);
    }

    @Override
    public List<Order> findRecentOf(CustomerId customer, int limit) {
        return sql.newestFirstOf(customer, limit);
    }

    /** The versions read in the current transaction, bound to it on first use; null outside a transaction. */
    private VersionsRead versionsRead() {
        VersionsRead read = (VersionsRead) TransactionSynchronizationManager.getResource(this);
        if (read == null && TransactionSynchronizationManager.isSynchronizationActive()) {
            read = new VersionsRead();
            TransactionSynchronizationManager.bindResource(this, read);
            TransactionSynchronizationManager.registerSynchronization(read);
        }
        return read;
    }

    /** Order id to the version of its row as this transaction read (or wrote) it. */
    private final class VersionsRead implements TransactionSynchronization {

        private final Map<OrderId, Long> versions = new HashMap<>();

        @Override
        public void suspend() {
            TransactionSynchronizationManager.unbindResource(OrderPersistenceAdapter.this);
        }

        @Override
        public void resume() {
            TransactionSynchronizationManager.bindResource(OrderPersistenceAdapter.this, this);
        }

        @Override
        public void afterCompletion(int status) {
            TransactionSynchronizationManager.unbindResourceIfPossible(OrderPersistenceAdapter.this);
        }
    }
}
