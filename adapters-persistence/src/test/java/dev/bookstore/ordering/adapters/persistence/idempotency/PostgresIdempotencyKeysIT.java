package dev.bookstore.ordering.adapters.persistence.idempotency;

import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.persistence.testing.PooledTestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The idempotency key contract on a real PostgreSQL, in a database of its own made for this class. */
class PostgresIdempotencyKeysIT extends JdbcIdempotencyKeysContract {

    private static PooledTestDatabase database;
    private static HikariDataSource dataSource;

    @BeforeAll
    static void createDatabase() {
        database = TestPostgres.newMigratedPool("idempotency-contract", 4);
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
    protected String backdateStatement() {
        return "UPDATE idempotency_key SET created_at = created_at - ? * interval '1 second' "
                + "WHERE customer_id = CAST(? AS uuid) AND idempotency_key = ?";
    }

    @Override
    protected String lockRowStatement() {
        return "SELECT 1 FROM idempotency_key WHERE customer_id = CAST(? AS uuid) AND idempotency_key = ? FOR UPDATE";
    }
}
