package dev.bookstore.ordering.adapters.persistence.outbox;

import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.testing.PooledTestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestMariaDb;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The outbox contract on a real MariaDB, in a database of its own made for this class. */
class MariaDbOutboxStoreIT extends JdbcOutboxStoreContract {

    private static PooledTestDatabase database;
    private static HikariDataSource dataSource;

    @BeforeAll
    static void createDatabase() {
        database = TestMariaDb.newMigratedPool("outbox-contract", 8);
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
        return Database.MARIADB;
    }

    /** None: the relay's connections change nothing here; every commit is as durable as the server's settings. */
    @Override
    protected String commitDurabilityQuery() {
        return null;
    }

    @Override
    protected String databaseNowQuery() {
        return "SELECT UTC_TIMESTAMP(6)";
    }
}
