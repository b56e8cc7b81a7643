package dev.bookstore.ordering.adapters.persistence.testing;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mssqlserver.MSSQLServerContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A SQL Server for integration tests, which runs only through Testcontainers. Test classes ask {@link #available()}
 * in {@code @EnabledIf}: without a Docker engine they are reported as skipped, with the reason.
 */
public final class TestSqlServer implements AutoCloseable {

    private static final DockerImageName IMAGE = DockerImageName.parse("mcr.microsoft.com/mssql/server:2022-latest");
    private static final String DATABASE = "ordering_it";

    private final MSSQLServerContainer container;
    private final HikariDataSource dataSource;

    private TestSqlServer(MSSQLServerContainer container, HikariDataSource dataSource) {
        this.container = container;
        this.dataSource = dataSource;
    }

    public static boolean available() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    /**
     * A server with one database, {@code READ_COMMITTED_SNAPSHOT ON} as the dialects ask (readers never wait for row
     * locks), migrated by Flyway from {@code flywayLocation}, and a pool of at most {@code poolSize} connections.
     */
    public static TestSqlServer start(String flywayLocation, String poolName, int poolSize) throws SQLException {
        MSSQLServerContainer container = new MSSQLServerContainer(IMAGE).acceptLicense();
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
        return new TestSqlServer(container,
                TestPostgres.pool(url, container.getUsername(), container.getPassword(), poolName, poolSize));
    }

    public DataSource dataSource() {
        return dataSource;
    }

    @Override
    public void close() {
        dataSource.close();
        container.stop();
    }
}
