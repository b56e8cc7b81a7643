package dev.bookstore.ordering.adapters.persistence.outbox;
import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.persistence.Database;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIf;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mssqlserver.MSSQLServerContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The outbox contract on a real SQL Server. SQL Server runs only through Testcontainers: without a
 * Docker engine the whole class is skipped, with the reason, and {@code OutboxDialectTest} is what still checks
 * the SQL Server statements. A condition rather than an assumption in {@code @BeforeAll}: Failsafe reports a class
 * aborted there as zero tests run, where a disabled class shows every test as skipped, with the reason.
 */
@EnabledIf(value = "dockerIsAvailable", disabledReason = "SQL Server runs only through Testcontainers, and no "
        + "Docker engine is available here; OutboxDialectTest still checks the SQL Server statements")
class SqlServerOutboxStoreIT extends JdbcOutboxStoreContract {

    private static final DockerImageName IMAGE = DockerImageName.parse("mcr.microsoft.com/mssql/server:2022-latest");
    private static final String DATABASE = "ordering_it";

    private static MSSQLServerContainer container;
    private static HikariDataSource dataSource;

    @BeforeAll
    static void startSqlServer() throws SQLException {
        container = new MSSQLServerContainer(IMAGE).acceptLicense();
        container.start();
        String server = container.getJdbcUrl() + (container.getJdbcUrl().contains("encrypt=") ? "" : ";encrypt=false");
        try (Connection master = DriverManager.getConnection(server, container.getUsername(), container.getPassword());
             Statement statement = master.createStatement()) {
            statement.execute("CREATE DATABASE " + DATABASE);
            // As the dialect asks for: readers never wait for the relay's row locks.
            statement.execute("ALTER DATABASE " + DATABASE + " SET READ_COMMITTED_SNAPSHOT ON");
        }
        String url = server + ";databaseName=" + DATABASE;
        Flyway.configure()
                .dataSource(url, container.getUsername(), container.getPassword())
                .locations("classpath:db/migration/sqlserver")
                .load()
                .migrate();
        dataSource = pool(url, container.getUsername(), container.getPassword());
    }

    static boolean dockerIsAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    @AfterAll
    static void stopSqlServer() {
        if (dataSource != null) {
            dataSource.close();
        }
        if (container != null) {
            container.stop();
        }
    }

    @Override
    protected DataSource dataSource() {
        return dataSource;
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
