package dev.bookstore.ordering.adapters.persistence.testing;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mssqlserver.MSSQLServerContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A SQL Server for the integration tests of one class ({@code @RegisterExtension static}), which runs only through
 * Testcontainers: classes are {@link EnabledWithSqlServer}, so without a Docker engine they are reported as skipped,
 * with the reason. One database, {@code READ_COMMITTED_SNAPSHOT ON} as the dialects ask (readers never wait for row
 * locks), migrated by Flyway from one location, and a pool of four connections on it.
 */
public final class TestSqlServer implements BeforeAllCallback, AfterAllCallback {

    private static final DockerImageName IMAGE = DockerImageName.parse("mcr.microsoft.com/mssql/server:2022-latest");
    private static final String DATABASE = "ordering_it";

    private final String flywayLocation;
    private MSSQLServerContainer container;
    private HikariDataSource dataSource;

    public TestSqlServer(String flywayLocation) {
        this.flywayLocation = flywayLocation;
    }

    public static boolean available() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        container = new MSSQLServerContainer(IMAGE).acceptLicense();
        container.start();
        String server = container.getJdbcUrl() + (container.getJdbcUrl().contains("encrypt=") ? "" : ";encrypt=false");
        try (Connection master = DriverManager.getConnection(server, container.getUsername(), container.getPassword());
             Statement statement = master.createStatement()) {
            statement.execute("CREATE DATABASE " + DATABASE);
            statement.execute("ALTER DATABASE " + DATABASE + " SET READ_COMMITTED_SNAPSHOT ON");
        }
        String url = server + ";databaseName=" + DATABASE;
        Flyway.configure().dataSource(url, container.getUsername(), container.getPassword())
                .locations(flywayLocation).load().migrate();
        dataSource = TestPostgres.pool(url, container.getUsername(), container.getPassword(), "sql-server-it", 4);
    }

    public DataSource dataSource() {
        return dataSource;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (dataSource != null) {
            dataSource.close();
        }
        if (container != null) {
            container.stop();
        }
    }
}
