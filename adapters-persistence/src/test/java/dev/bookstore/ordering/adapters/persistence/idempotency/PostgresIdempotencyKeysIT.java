package dev.bookstore.ordering.adapters.persistence.idempotency;

import dev.bookstore.ordering.adapters.persistence.testing.MigratedDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The idempotency key contract on a real PostgreSQL, in a database of its own made for this class. */
class PostgresIdempotencyKeysIT extends JdbcIdempotencyKeysContract {

    @RegisterExtension
    static final MigratedDatabase DATABASE = new MigratedDatabase(TestEngine.POSTGRESQL, "idempotency-contract", 4);

    @Override
    protected DataSource dataSource() {
        return DATABASE.dataSource();
    }

    @Override
    protected String backdateStatement() {
        return "UPDATE idempotency_key SET created_at = created_at - ? * interval '1 second' "
                + "WHERE customer_id = CAST(? AS uuid) AND idempotency_key = ?";
    }

    @Override
    protected String lockRowStatement() {
        return "SELECT 1 FROM idempotency_key WHERE customer_id = CAST(? AS uuid) AND idempotency_key = ? FOR UPDATE";
    }
}
