package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.testing.MigratedDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The outbox contract on a real PostgreSQL, in a database of its own made for this class. */
class PostgresOutboxStoreIT extends JdbcOutboxStoreContract {

    @RegisterExtension
    static final MigratedDatabase DATABASE = new MigratedDatabase(TestEngine.POSTGRESQL, "outbox-contract", 8);

    @Override
    protected DataSource dataSource() {
        return DATABASE.dataSource();
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
