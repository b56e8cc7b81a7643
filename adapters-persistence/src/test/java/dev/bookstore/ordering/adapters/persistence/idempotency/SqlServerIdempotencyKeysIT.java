package dev.bookstore.ordering.adapters.persistence.idempotency;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
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
 * The idempotency key contract on a real SQL Server, which runs only through Testcontainers: without a Docker
 * engine the class is skipped, with the reason, and {@code IdempotencyDialectTest} still checks the statements.
 */
@EnabledIf(value = "dockerIsAvailable", disabledReason = "SQL Server runs only through Testcontainers, and no "
        + "Docker engine is available here; IdempotencyDialectTest still checks the SQL Server statements")
class SqlServerIdempotencyKeysIT extends JdbcIdempotencyKeysContract {

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
            // As the dialect asks for: NOT EXISTS reads committed keys without waiting for locks.
            statement.execute("ALTER DATABASE " + DATABASE + " SET READ_COMMITTED_SNAPSHOT ON");
        }
        String url = server + ";databaseName=" + DATABASE;
        Flyway.configure()
                .dataSource(url, container.getUsername(), container.getPassword())
                .locations("classpath:db/migration/sqlserver")
                .load()
                .migrate();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(container.getUsername());
        config.setPassword(container.getPassword());
        config.setMaximumPoolSize(4);
        config.setPoolName("idempotency-contract");
        dataSource = new HikariDataSource(config);
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
    protected String backdateStatement() {
        return "UPDATE idempotency_key SET created_at = DATEADD(second, -CAST(? AS int), created_at) "
                + "WHERE customer_id = ? AND idempotency_key = ?";
    }

    @Override
    protected String lockRowStatement() {
        return "SELECT 1 FROM idempotency_key WITH (UPDLOCK, ROWLOCK) WHERE customer_id = ? AND idempotency_key = ?";
    }
}
