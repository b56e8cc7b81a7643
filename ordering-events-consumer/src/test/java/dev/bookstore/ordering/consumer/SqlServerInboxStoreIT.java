package dev.bookstore.ordering.consumer;

import dev.bookstore.ordering.adapters.persistence.testing.TestSqlServer;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIf;

/** The inbox on a real SQL Server, which runs only through Testcontainers; InboxDialectTest checks it everywhere. */
@EnabledIf(value = "dockerIsAvailable", disabledReason = "SQL Server runs only through Testcontainers, and no "
        + "Docker engine is available here; InboxDialectTest still checks the SQL Server statements")
class SqlServerInboxStoreIT extends JdbcInboxStoreContract {

    private static TestSqlServer server;

    @BeforeAll
    static void startSqlServer() throws SQLException {
        server = TestSqlServer.start("classpath:db/ordering-inbox/sqlserver", "inbox-contract", 2);
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
    protected String receivedTwoHoursEarlier() {
        return "UPDATE inbox_message SET received_at = DATEADD(hour, -2, received_at)";
    }

    @Override
    protected String lockRowStatement() {
        return "SELECT 1 FROM inbox_message WITH (UPDLOCK, ROWLOCK) WHERE message_id = ?";
    }
}
