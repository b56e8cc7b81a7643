package dev.bookstore.ordering.adapters.persistence;

import dev.bookstore.ordering.application.port.out.OrderRepository;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/**
 * {@link OrderRepository}: reading one order and changing its status through JPA; placing an order and listing
 * the newest ones through the hand-written statements of {@link OrderSql}. A new order is only inserted: never
 * read first, never merged (merging a new aggregate reads it, and copying its line collection bumped the version
 * of the row just inserted). Lines never change after placing, so an update only touches the status.
 */
@Component
class OrderPersistenceAdapter implements OrderRepository {

    private final OrderJpaRepository repository;
    private final OrderSql sql;

    OrderPersistenceAdapter(OrderJpaRepository repository, DataSource dataSource) {
        this.repository = repository;
        this.sql = new OrderSql(dataSource);
    }

    @Override
    public void add(Order order) {
        sql.insert(order);
    }

    @Override
    public void update(Order order) {
        // The caller read the order in this transaction, so this is answered by the persistence context.
        OrderJpaEntity stored = repository.findById(order.id().value()).orElseThrow(() ->
                new IllegalStateException("order " + order.id() + " is not stored; update is for stored orders"));
        stored.status(order.status());
    }

    @Override
    public Optional<Order> findById(OrderId id) {
        return repository.findById(id.value()).map(OrderMapper::toDomain);
    }

    @Override
    public List<Order> findRecent(int limit) {
        return sql.newestFirst(limit);
    }

    @Override
    public List<Order> findRecentOf(CustomerId customer, int limit) {
        return sql.newestFirstOf(customer, limit);
    }
}
