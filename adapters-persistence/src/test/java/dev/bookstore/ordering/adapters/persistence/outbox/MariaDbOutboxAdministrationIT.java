package dev.bookstore.ordering.adapters.persistence.outbox;

import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.testing.PooledTestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestMariaDb;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The outbox administration contract on a real MariaDB, in a database of its own made for this class. */
class MariaDbOutboxAdministrationIT extends JdbcOutboxAdministrationContract {

    private static PooledTestDatabase database;
    private static HikariDataSource dataSource;

    @BeforeAll
    static void createDatabase() {
        database = TestMariaDb.newMigratedPool("outbox-administration", 4);
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
}
