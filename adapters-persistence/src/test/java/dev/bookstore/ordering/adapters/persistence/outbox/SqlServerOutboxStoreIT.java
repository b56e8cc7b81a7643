package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.testing.EnabledWithSqlServer;
import dev.bookstore.ordering.adapters.persistence.testing.TestSqlServer;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The outbox contract on a real SQL Server. SQL Server runs only through Testcontainers: without a Docker engine the
 * whole class is skipped, with the reason, and {@code OutboxDialectTest} is what still checks the SQL Server
 * statements.
 */
@EnabledWithSqlServer
class SqlServerOutboxStoreIT extends JdbcOutboxStoreContract {

    @RegisterExtension
    static final TestSqlServer SQL_SERVER = new TestSqlServer("classpath:db/migration/sqlserver");

    @Override
    protected DataSource dataSource() {
        return SQL_SERVER.dataSource();
    }

    @Override
    protected Database expectedDatabase() {
        return Database.SQL_SERVER;
    }

    /** None: the relay's connections change nothing here (delayed durability is the database owner's choice). */
    @Override
    protected String commitDurabilityQuery() {
        return null;
    }

    @Override
    protected String databaseNowQuery() {
        return "SELECT SYSDATETIMEOFFSET()";
    }
}
