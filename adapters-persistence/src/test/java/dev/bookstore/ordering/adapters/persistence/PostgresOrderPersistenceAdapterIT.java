package dev.bookstore.ordering.adapters.persistence;

import dev.bookstore.ordering.adapters.persistence.testing.MigratedDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The order adapter contract on a real PostgreSQL, in a database of its own made for this class. */
class PostgresOrderPersistenceAdapterIT extends OrderPersistenceAdapterContract {

    @RegisterExtension
    static final MigratedDatabase DATABASE = new MigratedDatabase(TestEngine.POSTGRESQL, "order-adapter", 4);

    @Override
    protected DataSource dataSource() {
        return DATABASE.dataSource();
    }

    @Override
    protected Database expectedDatabase() {
        return Database.POSTGRESQL;
    }
}
