package dev.bookstore.ordering.adapters.persistence.idempotency;

import dev.bookstore.ordering.adapters.persistence.testing.MigratedDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The idempotency key contract on a real MariaDB, in a database of its own made for this class. */
class MariaDbIdempotencyKeysIT extends JdbcIdempotencyKeysContract {

    @RegisterExtension
    static final MigratedDatabase DATABASE = new MigratedDatabase(TestEngine.MARIADB, "idempotency-contract", 4);

    @Override
    protected DataSource dataSource() {
        return DATABASE.dataSource();
    }

    @Override
    protected String backdateStatement() {
        return "UPDATE idempotency_key SET created_at = created_at - INTERVAL ? SECOND "
                + "WHERE customer_id = ? AND idempotency_key = ?";
    }

    @Override
    protected String lockRowStatement() {
        return "SELECT 1 FROM idempotency_key WHERE customer_id = ? AND idempotency_key = ? FOR UPDATE";
    }
}
