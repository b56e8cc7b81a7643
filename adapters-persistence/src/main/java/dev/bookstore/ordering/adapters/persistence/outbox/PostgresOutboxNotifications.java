package dev.bookstore.ordering.adapters.persistence.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Waits for {@code NOTIFY ordering_outbox} on a connection of its own, so a commit on any instance wakes the
 * relays of all instances. The connection is opened lazily, reopened after a failure, and held for as long as
 * this listens: give it an unpooled {@link DataSource} so that it does not take a connection from the pool.
 */
public final class PostgresOutboxNotifications implements AutoCloseable {

    private final DataSource dataSource;
    private volatile Connection connection;

    public PostgresOutboxNotifications(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Blocks up to {@code timeout} for a notification.
     *
     * @return true if at least one arrived (all pending ones are consumed), or if this call had to start
     *         listening first: whatever was committed before the {@code LISTEN} was not announced to it, so the
     *         caller should look; false on timeout
     * @throws SQLException when the connection failed; the next call opens a new one
     */
    public boolean await(Duration timeout) throws SQLException {
        if (connection == null) {
            listeningConnection();
            return true;
        }
        try {
            PGNotification[] notifications = listeningConnection().unwrap(PGConnection.class)
                    .getNotifications(Math.toIntExact(Math.max(1, timeout.toMillis())));
            return notifications != null && notifications.length > 0;
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    private Connection listeningConnection() throws SQLException {
        if (connection == null) {
            Connection opened = dataSource.getConnection();
            opened.setAutoCommit(true);
            try (Statement statement = opened.createStatement()) {
                statement.execute("LISTEN " + OutboxDomainEventPublisher.NOTIFY_CHANNEL);
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
