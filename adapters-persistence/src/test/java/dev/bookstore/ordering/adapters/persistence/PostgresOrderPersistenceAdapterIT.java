package dev.bookstore.ordering.adapters.persistence;

import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.persistence.testing.PooledTestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The order adapter contract on a real PostgreSQL, in a database of its own made for this class. */
class PostgresOrderPersistenceAdapterIT extends OrderPersistenceAdapterContract {

    private static PooledTestDatabase database;
    private static HikariDataSource dataSource;

    @BeforeAll
    static void createDatabase() {
        database = TestPostgres.newMigratedPool("order-adapter", 4);
        dataSource = database.dataSource();
    }

    @AfterAll
    static void dropDatabase() {
        if (database != null) {
            database.close();
        }
    }

    @Override
    protected DataSource dataSource() {
        return dataSource;
    }

    @Override
    protected Database expectedDatabase() {
        return Database.POSTGRESQL;
    }
}
