package dev.bookstore.ordering.bootstrap.cdc;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * An embedded PostgreSQL of the CDC tests' own, with {@code wal_level=logical}: logical decoding needs it, and the
 * machine's server runs with {@code replica} and is never reconfigured. Started once per JVM, stopped at exit;
 * each {@link #newMigratedDatabase()} is a database of its own with the service's schema. It loads
 * {@code pg_stat_statements}, with which the relay benchmark counts the statements each relay sends.
 */
public final class LogicalPostgres {

    private static EmbeddedPostgres server;

    private LogicalPostgres() {
    }

    public static synchronized TestDatabase newMigratedDatabase() {
        return newMigratedDatabase(null);
    }

    /**
     * A database of its own whose tables are in {@code schema} (created first), named by the URL's
     * {@code currentSchema=}, through which Flyway migrates it; in {@code public} when null.
     */
    public static synchronized TestDatabase newMigratedDatabase(String schema) {
        TestDatabase database = newDatabase(schema);
        Flyway.configure().dataSource(database.url(), database.username(), database.password())
                .locations("classpath:db/migration/postgresql").load().migrate();
        return database;
    }

    /**
     * A database of its own with schema {@code schema}, empty, named by the URL's {@code currentSchema=} (or with
     * nothing, {@code public}, when null): what a service instance's own Flyway migrates at its start.
     */
    public static synchronized TestDatabase newDatabase(String schema) {
        EmbeddedPostgres postgres = server();
        String name = "ordering_cdc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)
                .toLowerCase(Locale.ROOT);
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create " + name, e);
        }
        String url = postgres.getJdbcUrl("postgres", name);
        TestDatabase database = new TestDatabase(schema == null ? url : url + "&currentSchema=" + schema,
                "postgres", "", name);
        if (schema != null) {
            new JdbcTemplate(new DriverManagerDataSource(url, "postgres", "")).execute("CREATE SCHEMA " + schema);
        }
        return database;
    }

    /** The server's {@code postgres} database, for what watches the server rather than one database. */
    public static synchronized DataSource postgresDatabase() {
        return server().getPostgresDatabase();
    }

    private static EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder()
                        .setServerConfig("wal_level", "logical")
                        .setServerConfig("max_replication_slots", "20")
                        .setServerConfig("max_wal_senders", "20")
                        .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start the embedded PostgreSQL for the CDC tests", e);
            }
            EmbeddedPostgres started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException ignored) {
                    // the JVM is going away
                }
            }));
        }
        return server;
    }
}
