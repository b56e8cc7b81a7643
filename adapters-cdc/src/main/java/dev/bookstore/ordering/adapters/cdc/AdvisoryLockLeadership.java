package dev.bookstore.ordering.adapters.cdc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

/**
 * One reader per slot: a PostgreSQL session-level advisory lock, keyed by the slot's name and held on a connection of
 * its own for as long as this instance reads the slot. The server releases it when that session ends: at once when
 * the holding process exits or its connection is closed; when the holder's host vanishes, once the server's TCP
 * keepalive gives up on the connection ({@code tcp_keepalives_*}).
 */
final class AdvisoryLockLeadership implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(AdvisoryLockLeadership.class.getName());
    private static final int VALID_TIMEOUT_SECONDS = 5;

    private final CdcSettings settings;
    private final String lockName;
    private Connection connection;
    private boolean held;

    AdvisoryLockLeadership(CdcSettings settings) {
        this.settings = settings;
        this.lockName = "ordering.outbox.cdc/" + settings.slotName();
    }

    /** Takes the lock if it is free (or keeps it); false when another session holds it or the database is away. */
    synchronized boolean tryAcquire() {
        if (held && holds()) {
            return true;
        }
        try {
            if (connection == null || connection.isClosed()) {
                connection = connect();
            }
            try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(hashtext(?))")) {
                lock.setString(1, lockName);
                try (ResultSet result = lock.executeQuery()) {
                    held = result.next() && result.getBoolean(1);
                }
            }
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.DEBUG, "Cannot try the CDC leader lock: {0}", e.getMessage());
            drop();
        }
        return held;
    }

    /** Whether this instance still holds the lock: its session answers. */
    synchronized boolean holds() {
        try {
            if (held && connection != null && connection.isValid(VALID_TIMEOUT_SECONDS)) {
                return true;
            }
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.DEBUG, "The CDC leader lock's session failed: {0}", e.getMessage());
        }
        drop();
        return false;
    }

    /** Gives the lock up (closing its session releases it). */
    @Override
    public synchronized void close() {
        drop();
    }

    private void drop() {
        held = false;
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the session is gone either way, and the lock with it
            }
            connection = null;
        }
    }

    private Connection connect() throws SQLException {
        return connect(settings, "ordering-cdc-lock " + settings.instance());
    }

    /** A connection of the CDC relay's own to the service's database, named {@code applicationName}. */
    static Connection connect(CdcSettings settings, String applicationName) throws SQLException {
        Properties properties = new Properties();
        if (settings.username() != null) {
            properties.setProperty("user", settings.username());
        }
        if (settings.password() != null) {
            properties.setProperty("password", settings.password());
        }
        properties.setProperty("ApplicationName", applicationName);
        properties.setProperty("tcpKeepAlive", "true");
        return DriverManager.getConnection(settings.jdbcUrl(), properties);
    }
}
