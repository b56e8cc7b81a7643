package dev.bookstore.ordering.adapters.persistence.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.IntSupplier;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Waits for {@code NOTIFY ordering_outbox} on a connection of its own, so a commit on any instance wakes the
 * relays of all instances. The connection is opened lazily, reopened after a failure, and held for as long as
 * this listens: give it an unpooled {@link DataSource} so that it does not take a connection from the pool.
 *
 * <p>A wait that gets no notification reads nothing from the server, so it cannot tell an idle connection from one
 * that stopped answering (a half-open connection, a firewall that dropped its state): after
 * {@link #KEEP_ALIVE_INTERVAL} without an answer, a keep-alive query (the driver's empty query) must answer within
 * {@value #KEEP_ALIVE_TIMEOUT_SECONDS} s, or the connection is closed and the wait fails, so the listener falls back
 * on its poll and listens again on a new connection.
 */
public final class PostgresOutboxNotifications implements AutoCloseable {

    /** The channel relays {@code LISTEN} on and {@link PostgresOutboxNotifier} notifies. */
    static final String CHANNEL = "ordering_outbox";

    static final Duration KEEP_ALIVE_INTERVAL = Duration.ofSeconds(10);
    static final int KEEP_ALIVE_TIMEOUT_SECONDS = 5;

    private final DataSource dataSource;
    private final IntSupplier ownSenderPid;
    private volatile Connection connection;
    private long lastAnswer;

    /**
     * @param ownSenderPid the backend process id of this instance's own {@link PostgresOutboxNotifier}
     *                     connection: its notifications are skipped, as this instance's relay was woken in process
     */
    public PostgresOutboxNotifications(DataSource dataSource, IntSupplier ownSenderPid) {
        this.dataSource = dataSource;
        this.ownSenderPid = ownSenderPid;
    }

    /**
     * Blocks up to {@code timeout} for a notification.
     *
     * @return true if at least one arrived from another instance (all pending ones are consumed), or if this
     *         call had to start listening first: whatever was committed before the {@code LISTEN} was not
     *         announced to it, so the caller should look; false on timeout
     * @throws SQLException when the connection failed or stopped answering; the next call opens a new one
     */
    public boolean await(Duration timeout) throws SQLException {
        if (connection == null) {
            listeningConnection();
            lastAnswer = System.nanoTime();
            return true;
        }
        try {
            PGNotification[] notifications = listeningConnection().unwrap(PGConnection.class)
                    .getNotifications(Math.toIntExact(Math.max(1, timeout.toMillis())));
            if (notifications == null || notifications.length == 0) { // the driver answers an empty array
                keepAlive();
                return false;
            }
            lastAnswer = System.nanoTime();
            int own = ownSenderPid.getAsInt();
            for (PGNotification notification : notifications) {
                if (notification.getPID() != own) {
                    return true;
                }
            }
            return false;
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    /** The keep-alive query, once {@link #KEEP_ALIVE_INTERVAL} passed without an answer from the server. */
    private void keepAlive() throws SQLException {
        if (System.nanoTime() - lastAnswer < KEEP_ALIVE_INTERVAL.toNanos()) {
            return;
        }
        if (!listeningConnection().isValid(KEEP_ALIVE_TIMEOUT_SECONDS)) {
            throw new SQLException("The LISTEN connection did not answer a keep-alive query within "
                    + KEEP_ALIVE_TIMEOUT_SECONDS + " s", "08006");
        }
        lastAnswer = System.nanoTime();
    }

    private Connection listeningConnection() throws SQLException {
        if (connection == null) {
            Connection opened = dataSource.getConnection();
            opened.setAutoCommit(true);
            try (Statement statement = opened.createStatement()) {
                statement.execute("LISTEN " + CHANNEL);
            }
            connection = opened;
        }
        return connection;
    }

    /** Closes the connection; safe to call from another thread to end a blocked {@link #await}. */
    @Override
    public void close() {
        Connection closing = connection;
        connection = null;
        if (closing != null) {
            try {
                closing.close();
            } catch (SQLException ignored) {
                // the connection is being discarded anyway
            }
        }
    }
}
