package dev.bookstore.ordering.bootstrap.config;

import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.application.outbox.relay.OutboxLeases;

/**
 * The relay's database connections, a pool of their own beside the API's (a bulkhead: requests waiting for the API's
 * pool never hold up the relay, and the relay never takes a connection a request could have had), and the outbox
 * on them. Not a {@code DataSource} bean, so Boot's auto-configuration (Flyway, the transaction manager, the
 * {@code db} health indicator) keeps seeing exactly one data source, the API's. Closed after the relay workers that
 * depend on it have stopped.
 */
public record RelayConnectionPool(HikariDataSource pool, OutboxLeases outbox) implements AutoCloseable {

    @Override
    public void close() {
        pool.close();
    }
}
