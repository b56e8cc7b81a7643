package dev.bookstore.ordering.adapters.persistence.testing;

import com.zaxxer.hikari.HikariDataSource;

/** A database of one test class and a connection pool on it; closing closes the pool and drops the database. */
public record PooledTestDatabase(TestDatabase database, HikariDataSource dataSource) implements AutoCloseable {

    @Override
    public void close() {
        dataSource.close();
        database.drop();
    }
}
