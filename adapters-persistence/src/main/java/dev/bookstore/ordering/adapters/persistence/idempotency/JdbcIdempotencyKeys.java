package dev.bookstore.ordering.adapters.persistence.idempotency;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link IdempotencyKeys} on the {@code idempotency_key} table. Claiming joins the caller's transaction (the
 * order's) and costs one {@code INSERT} when the key is free; only a key in use costs a second statement, the read
 * of the committed row. Deleting expired keys runs one auto-committed statement (on MariaDB one short transaction).
 */
@Component
public class JdbcIdempotencyKeys implements IdempotencyKeys {

    private final JdbcTemplate jdbc;
    private final Database database;
    private final IdempotencyDialect dialect;
    private final TransactionTemplate purge;

    public JdbcIdempotencyKeys(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.database = Database.of(dataSource);
        this.dialect = IdempotencyDialect.of(database);
        this.purge = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        purge.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
    }

    @Override
    public Claim claim(CustomerId customer, IdempotencyKey key, String requestFingerprint, OrderId orderId) {
        try {
            if (jdbc.update(dialect.record(), dialect.recordParameters(customer.value(), key.value(),
                    requestFingerprint, orderId.value())) == 1) {
                return new Claim.Recorded();
            }
        } catch (DataAccessException e) {
            if (!(e.getMostSpecificCause() instanceof SQLException failure)) {
                throw e;
            }
            if (dialect.heldByAnotherTransaction(failure)) {
                return new Claim.InFlight();
            }
            if (!dialect.recordedMeanwhile(failure)) {
                throw e;
            }
        }
        // Not recorded: the key is in use. A statement of its own sees what committed until now, so a key that
        // is not found is held by a transaction that has not committed (or was deleted just now, as expired):
        // either way, asking again later gives the answer.
        List<Claim> used = jdbc.query(dialect.find(), (rs, row) -> new Claim.Used(rs.getString(1),
                new OrderId(UUID.fromString(rs.getString(2)))), database.id(customer.value()), key.value());
        return used.isEmpty() ? new Claim.InFlight() : used.get(0);
    }

    /** One statement, or where the dialect has {@link IdempotencyDialect#deleteLocked()} a lock and a batch. */
    @Override
    public int deleteExpired(Duration retention, int limit) {
        Optional<String> deleteLocked = dialect.deleteLocked();
        Object[] parameters = dialect.deleteExpiredParameters(retention, limit);
        if (deleteLocked.isEmpty()) {
            return jdbc.update(dialect.deleteExpired(), parameters);
        }
        Integer deleted = purge.execute(status -> {
            List<Object[]> keys = jdbc.query(dialect.deleteExpired(),
                    (rs, row) -> new Object[] {rs.getString(1), rs.getString(2)}, parameters);
            if (!keys.isEmpty()) {
                jdbc.batchUpdate(deleteLocked.get(), keys);
            }
            return keys.size();
        });
        return deleted == null ? 0 : deleted;
    }
}
