package dev.bookstore.ordering.adapters.persistence.idempotency;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The idempotency key contract on a real PostgreSQL, in a database of its own made for this class. */
class PostgresIdempotencyKeysIT extends JdbcIdempotencyKeysContract {

    private static TestPostgres.Database database;
    private static HikariDataSource dataSource;

    @BeforeAll
    static void createDatabase() {
        database = TestPostgres.newMigratedDatabase();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.url());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(4);
        config.setPoolName("idempotency-contract");
        dataSource = new HikariDataSource(config);
    }

    @AfterAll
    static void dropDatabase() {
        if (dataSource != null) {
            dataSource.close();
        }
        if (database != null) {
            TestPostgres.drop(database);
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
