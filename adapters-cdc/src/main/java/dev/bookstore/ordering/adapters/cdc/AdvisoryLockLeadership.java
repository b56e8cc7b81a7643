package dev.bookstore.ordering.adapters.cdc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * One reader per slot: a PostgreSQL session-level advisory lock, keyed by the slot's name and held on a connection of
 * its own for as long as this instance reads the slot. The server releases it when that session ends: at once when
 * the holding process exits or its connection is closed; when the holder's host vanishes, once the server's TCP
 * keepalive gives up on the connection ({@code tcp_keepalives_*}).
 *
 * <p>The connection is made as the pool's ({@link DatabaseConnection}: TLS and driver settings included), with a
 * socket timeout and TCP keep-alive where the pool sets none. The lock's statements answer in milliseconds (a
 * {@code pg_try_advisory_lock}, the empty query of {@code isValid}), and the connection is idle, never waiting on
 * the server, between them: so a statement on a connection that stopped answering (a half-open connection, a
 * firewall that dropped its state) fails after {@value #SOCKET_TIMEOUT_SECONDS} s, the connection is replaced, and
 * a standby goes on competing for the lock instead of waiting until the operating system gives up (about 15
 * minutes of retransmissions). The leader's check ({@link #holds()}) has its own, shorter bound.
 */
final class AdvisoryLockLeadership implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(AdvisoryLockLeadership.class.getName());
    private static final int VALID_TIMEOUT_SECONDS = 5;
    static final String SOCKET_TIMEOUT_SECONDS = "10";

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
        return settings.database().open("ordering-cdc-lock " + settings.instance(),
                Map.of("tcpKeepAlive", "true", "socketTimeout", SOCKET_TIMEOUT_SECONDS));
    }

    /**
     * A connection of the CDC relay's own to the service's database, made as the pool's, named
     * {@code applicationName}, with TCP keep-alive (no socket timeout: its caller may wait on the server).
     */
    static Connection connect(CdcSettings settings, String applicationName) throws SQLException {
        return settings.database().open(applicationName, Map.of("tcpKeepAlive", "true"));
    }
}
