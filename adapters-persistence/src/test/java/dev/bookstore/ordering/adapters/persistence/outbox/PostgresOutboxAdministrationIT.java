package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.testing.MigratedDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The outbox administration contract on a real PostgreSQL, in a database of its own made for this class. */
class PostgresOutboxAdministrationIT extends JdbcOutboxAdministrationContract {

    @RegisterExtension
    static final MigratedDatabase DATABASE = new MigratedDatabase(TestEngine.POSTGRESQL, "outbox-administration", 4);

    @Override
    protected DataSource dataSource() {
        return DATABASE.dataSource();
    }

    @Override
    protected Database expectedDatabase() {
        return Database.POSTGRESQL;
    }
}
