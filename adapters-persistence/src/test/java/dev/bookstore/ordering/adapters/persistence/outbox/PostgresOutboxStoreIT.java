package dev.bookstore.ordering.adapters.persistence.outbox;

import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.testing.PooledTestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The outbox contract on a real PostgreSQL, in a database of its own made for this class. */
class PostgresOutboxStoreIT extends JdbcOutboxStoreContract {

    private static PooledTestDatabase database;
    private static HikariDataSource dataSource;

    @BeforeAll
    static void createDatabase() {
        database = TestPostgres.newMigratedPool("outbox-contract", 8);
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

    @Override
    protected String commitDurabilityQuery() {
        return "SELECT CASE current_setting('synchronous_commit') WHEN 'off' THEN 'delayed' ELSE 'durable' END";
    }

    @Override
    protected String databaseNowQuery() {
        return "SELECT now()";
    }
}
