package dev.bookstore.ordering.consumer;

import dev.bookstore.ordering.adapters.persistence.testing.EnabledWithSqlServer;
import dev.bookstore.ordering.adapters.persistence.testing.TestSqlServer;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The inbox on a real SQL Server, which runs only through Testcontainers; InboxDialectTest checks it everywhere. */
@EnabledWithSqlServer
class SqlServerInboxStoreIT extends JdbcInboxStoreContract {

    @RegisterExtension
    static final TestSqlServer SQL_SERVER = new TestSqlServer("classpath:db/ordering-inbox/sqlserver");

    SqlServerInboxStoreIT() {
        super(SQL_SERVER::dataSource, "UPDATE inbox_message SET received_at = DATEADD(hour, -2, received_at)",
                "SELECT 1 FROM inbox_message WITH (UPDLOCK, ROWLOCK) WHERE message_id = ?");
    }
}
