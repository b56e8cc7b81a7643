package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.testing.MigratedDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The outbox contract on a real MariaDB, in a database of its own made for this class. */
class MariaDbOutboxStoreIT extends JdbcOutboxStoreContract {

    @RegisterExtension
    static final MigratedDatabase DATABASE = new MigratedDatabase(TestEngine.MARIADB, "outbox-contract", 8);

    @Override
    protected DataSource dataSource() {
        return DATABASE.dataSource();
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
