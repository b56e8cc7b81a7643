package dev.bookstore.ordering.adapters.persistence.summary;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestMariaDb;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The summary store contract on a real MariaDB, in a database of its own made for this class. */
class MariaDbCustomerOrderSummariesIT extends JdbcCustomerOrderSummariesContract {

    private static TestDatabase database;
    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        database = TestMariaDb.newMigratedDatabase();
        dataSource = new DriverManagerDataSource(database.url(), database.username(), database.password());
    }

    @AfterAll
    static void drop() {
        if (database != null) {
            database.drop();
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
