package dev.bookstore.ordering.adapters.persistence.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
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
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * A real PostgreSQL server for integration tests, found in this order: the {@code ORDERING_TEST_POSTGRES_URL}
 * environment variable (with {@code _USERNAME}, {@code _PASSWORD}); a server answering on 127.0.0.1:5432
 * (user postgres); a Testcontainers PostgreSQL where a Docker engine runs; an embedded PostgreSQL from a Maven
 * artifact. Every {@link #newDatabase()} is a database of its own, so tests never see each other's rows.
 */
public final class TestPostgres {

    private static Server server;

    private TestPostgres() {
    }

    private record Server(String baseUrl, String username, String password, String description) {
    }

    public static synchronized TestDatabase newDatabase() {
        Server found = server();
        String name = "ordering_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16)
                .toLowerCase(Locale.ROOT);
        try (Connection admin = DriverManager.getConnection(found.baseUrl() + "postgres", found.username(),
                found.password()); Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create test database on " + found.description(), e);
        }
        return new TestDatabase(found.baseUrl() + name, found.username(), found.password(), name);
    }

    /** A fresh database with the service's PostgreSQL schema, as Flyway migrates it at start. */
    public static TestDatabase newMigratedDatabase() {
        TestDatabase database = newDatabase();
        Flyway.configure().dataSource(database.url(), database.username(), database.password())
                .locations("classpath:db/migration/postgresql").load().migrate();
        return database;
    }

    /** A fresh database with the service's PostgreSQL schema and a pool of at most {@code size} connections. */
    public static PooledTestDatabase newMigratedPool(String poolName, int size) {
        TestDatabase database = newMigratedDatabase();
        return new PooledTestDatabase(database, pool(database.url(), database.username(), database.password(),
                poolName, size));
    }

    /** A connection pool of at most {@code size} connections on any database. */
    public static HikariDataSource pool(String url, String username, String password, String poolName, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(username);
        config.setPassword(password);
        config.setMaximumPoolSize(size);
        config.setPoolName(poolName);
        return new HikariDataSource(config);
    }

    /** Drops a database made by {@link #newDatabase()}, closing whatever connections are still open on it. */
    public static synchronized void drop(TestDatabase database) {
        Server found = server();
        try (Connection admin = DriverManager.getConnection(found.baseUrl() + "postgres", found.username(),
                found.password()); Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + database.name() + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot drop test database " + database.name(), e);
        }
    }

    /** Where the databases come from, for test reports. */
    public static synchronized String description() {
        return server().description();
    }

    private static Server server() {
        if (server == null) {
            server = discover();
        }
        return server;
    }

    private static Server discover() {
        String url = System.getenv("ORDERING_TEST_POSTGRES_URL");
        if (url != null && !url.isBlank()) {
            String base = url.endsWith("/") ? url : url.substring(0, url.lastIndexOf('/') + 1);
            return new Server(base, env("ORDERING_TEST_POSTGRES_USERNAME", "postgres"),
                    env("ORDERING_TEST_POSTGRES_PASSWORD", ""), "ORDERING_TEST_POSTGRES_URL");
        }
        if (answers("127.0.0.1", 5432)) {
            return new Server("jdbc:postgresql://127.0.0.1:5432/", "postgres", "", "PostgreSQL on 127.0.0.1:5432");
        }
        if (DockerClientFactory.instance().isDockerAvailable()) {
            PostgreSQLContainer container = new PostgreSQLContainer("postgres:16-alpine");
            container.start();
            String jdbcUrl = container.getJdbcUrl();
            return new Server(jdbcUrl.substring(0, jdbcUrl.lastIndexOf('/') + 1), container.getUsername(),
                    container.getPassword(), "Testcontainers " + container.getDockerImageName());
        }
        try {
            EmbeddedPostgres embedded = EmbeddedPostgres.builder().start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    embedded.close();
                } catch (IOException ignored) {
                    // the JVM is going away
                }
            }));
            return new Server("jdbc:postgresql://127.0.0.1:" + embedded.getPort() + "/", "postgres", "",
                    "embedded PostgreSQL on port " + embedded.getPort());
        } catch (IOException e) {
            throw new IllegalStateException("No PostgreSQL for integration tests: none configured, none on "
                    + "127.0.0.1:5432, no Docker engine, and the embedded one failed to start", e);
        }
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
