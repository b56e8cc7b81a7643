package dev.bookstore.ordering.adapters.persistence.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mariadb.MariaDBContainer;

/**
 * A real MariaDB server for integration tests, found as {@link TestPostgres} finds PostgreSQL: the
 * {@code ORDERING_TEST_MARIADB_URL} environment variable (a URL ending in a database name, with {@code _USERNAME},
 * {@code _PASSWORD}); a server answering on 127.0.0.1:3306 (user root, no password); a Testcontainers MariaDB where a
 * Docker engine runs. Every {@link #newDatabase()} is a database of its own.
 */
public final class TestMariaDb {

    private static Server server;

    private TestMariaDb() {
    }

    private record Server(String baseUrl, String username, String password, String description) {
    }

    public static synchronized TestDatabase newDatabase() {
        Server found = server();
        String name = "ordering_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16)
                .toLowerCase(Locale.ROOT);
        execute(found, "CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        return new TestDatabase(found.baseUrl() + name, found.username(), found.password(), name);
    }

    /** A fresh database with the service's MariaDB schema, as Flyway migrates it at start. */
    public static TestDatabase newMigratedDatabase() {
        TestDatabase database = newDatabase();
        Flyway.configure().dataSource(database.url(), database.username(), database.password())
                .locations("classpath:db/migration/mariadb").load().migrate();
        return database;
    }

    /** A fresh database with the service's MariaDB schema and a pool of at most {@code size} connections. */
    public static PooledTestDatabase newMigratedPool(String poolName, int size) {
        TestDatabase database = newMigratedDatabase();
        return new PooledTestDatabase(database, pool(database, poolName, size));
    }

    /** A pool on {@code database} whose transactions run at {@code READ COMMITTED}, as the service's do. */
    public static HikariDataSource pool(TestDatabase database, String poolName, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.url());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(size);
        config.setPoolName(poolName);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        return new HikariDataSource(config);
    }

    public static synchronized void drop(TestDatabase database) {
        execute(server(), "DROP DATABASE IF EXISTS " + database.name());
    }

    /** Where the databases come from, for test reports. */
    public static synchronized String description() {
        return server().description();
    }

    private static void execute(Server found, String sql) {
        try (Connection admin = DriverManager.getConnection(found.baseUrl(), found.username(), found.password());
             Statement statement = admin.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot run '" + sql + "' on " + found.description(), e);
        }
    }

    private static Server server() {
        if (server == null) {
            server = discover();
        }
        return server;
    }

    private static Server discover() {
        String url = System.getenv("ORDERING_TEST_MARIADB_URL");
        if (url != null && !url.isBlank()) {
            return new Server(url.substring(0, url.lastIndexOf('/') + 1), env("ORDERING_TEST_MARIADB_USERNAME", "root"),
                    env("ORDERING_TEST_MARIADB_PASSWORD", ""), "ORDERING_TEST_MARIADB_URL");
        }
        if (answers("127.0.0.1", 3306)) {
            return new Server("jdbc:mariadb://127.0.0.1:3306/", "root", "", "MariaDB on 127.0.0.1:3306");
        }
        if (DockerClientFactory.instance().isDockerAvailable()) {
            MariaDBContainer container = new MariaDBContainer("mariadb:10.11").withUsername("root");
            container.start();
            String jdbcUrl = container.getJdbcUrl();
            return new Server(jdbcUrl.substring(0, jdbcUrl.lastIndexOf('/') + 1), container.getUsername(),
                    container.getPassword(), "Testcontainers " + container.getDockerImageName());
        }
        throw new IllegalStateException("No MariaDB for integration tests: ORDERING_TEST_MARIADB_URL is not set, "
                + "nothing answers on 127.0.0.1:3306 and no Docker engine runs");
    }

    private static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
