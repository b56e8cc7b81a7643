package dev.bookstore.ordering.bootstrap.relay;

import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.persistence.outbox.JdbcOutboxStore;
import dev.bookstore.ordering.application.outbox.relay.OutboxStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * The relay's database connections, a pool of their own beside the API's: a bulkhead. Requests that wait for the
 * API's pool (a burst of orders, clients retrying) never hold up the relay's claim, mark-published and release
 * statements, and the relay never takes a connection a request could have had. The API's write path (the order and
 * its outbox row in one transaction) stays on the API's pool, and so do the other background jobs (retention,
 * the statistics count, the operator API).
 *
 * <p>Deliberately not a {@code DataSource} bean: Boot's auto-configuration (Flyway, the transaction manager,
 * {@code JdbcTemplate}, the {@code db} health indicator) keeps seeing exactly one data source, the API's. The relay's
 * {@link #outboxStore() store} runs on this pool alone: its statements auto-commit, and the one transaction it opens
 * (mark published and count, on SQL Server; one statement on PostgreSQL) is a {@code DataSourceTransactionManager}'s
 * on this pool, never Boot's on the API's.
 *
 * <p>{@link #close()} closes the pool; as the bean the relay workers depend on, it is closed after they have
 * stopped and settled their batches in flight.
 */
public final class RelayConnectionPool implements AutoCloseable {

    private final HikariDataSource pool;
    private final JdbcOutboxStore outbox;

    /** Takes over {@code pool}: closes it if the store cannot be made (e.g. the database cannot be reached). */
    public RelayConnectionPool(HikariDataSource pool, JsonMapper json) {
        this.pool = pool;
        try {
            this.outbox = new JdbcOutboxStore(pool, json);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /** The outbox as the relay uses it, on this pool's connections only. */
    public OutboxStore outboxStore() {
        return outbox;
    }

    public String poolName() {
        return pool.getPoolName();
    }

    public int maximumSize() {
        return pool.getMaximumPoolSize();
    }

    /** What each new connection of the pool runs first, or null (see {@code JdbcOutboxStore.relayConnectionSetup()}). */
    public String connectionInitSql() {
        return pool.getConnectionInitSql();
    }

    public boolean isClosed() {
        return pool.isClosed();
    }

    @Override
    public void close() {
        pool.close();
    }
}
