package dev.bookstore.ordering.adapters.persistence.idempotency;

import dev.bookstore.ordering.adapters.persistence.testing.TestSqlServer;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The idempotency key contract on a real SQL Server, which runs only through Testcontainers: without a Docker
 * engine the class is skipped, with the reason, and {@code IdempotencyDialectTest} still checks the statements.
 */
@EnabledIf(value = "dockerIsAvailable", disabledReason = "SQL Server runs only through Testcontainers, and no "
        + "Docker engine is available here; IdempotencyDialectTest still checks the SQL Server statements")
class SqlServerIdempotencyKeysIT extends JdbcIdempotencyKeysContract {

    private static TestSqlServer server;

    @BeforeAll
    static void startSqlServer() throws SQLException {
        server = TestSqlServer.start("classpath:db/migration/sqlserver", "idempotency-contract", 4);
    }

    static boolean dockerIsAvailable() {
        return TestSqlServer.available();
    }

    @AfterAll
    static void stopSqlServer() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected DataSource dataSource() {
        return server.dataSource();
    }

    @Override
    protected String backdateStatement() {
        return "UPDATE idempotency_key SET created_at = DATEADD(second, -CAST(? AS int), created_at) "
                + "WHERE customer_id = ? AND idempotency_key = ?";
    }

    @Override
    protected String lockRowStatement() {
        return "SELECT 1 FROM idempotency_key WITH (UPDLOCK, ROWLOCK) WHERE customer_id = ? AND idempotency_key = ?";
    }
}
