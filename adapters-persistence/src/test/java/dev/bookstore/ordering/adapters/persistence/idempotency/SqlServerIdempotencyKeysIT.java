package dev.bookstore.ordering.adapters.persistence.idempotency;

import dev.bookstore.ordering.adapters.persistence.testing.EnabledWithSqlServer;
import dev.bookstore.ordering.adapters.persistence.testing.TestSqlServer;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The idempotency key contract on a real SQL Server; IdempotencyDialectTest checks the statements everywhere. */
@EnabledWithSqlServer
class SqlServerIdempotencyKeysIT extends JdbcIdempotencyKeysContract {

    @RegisterExtension
    static final TestSqlServer SQL_SERVER = new TestSqlServer("classpath:db/migration/sqlserver");

    @Override
    protected DataSource dataSource() {
        return SQL_SERVER.dataSource();
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
