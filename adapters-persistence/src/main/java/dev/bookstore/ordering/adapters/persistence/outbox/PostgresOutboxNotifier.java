package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.application.outbox.OutboxCommitListener;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the relays of other instances that outbox rows were committed, with a PostgreSQL {@code NOTIFY} sent
 * after the commit, from a thread and a connection of its own, at most once per {@code minInterval}.
 *
 * <p>Why not {@code NOTIFY} inside the order's transaction: PostgreSQL takes one global lock at the commit of
 * every transaction that notified, so every committing order would wait for every other one. Here a commit
 * only sets a flag ({@link #outboxMessagesCommitted(int)}, no I/O on the request thread); the sender thread turns
 * all the commits of one interval into one {@code NOTIFY}. A commit that lands while a {@code NOTIFY} is being
 * sent sets the flag again and is announced by the next one, so no commit goes unannounced; an announcement
 * that fails (database unreachable) is covered by the relays' poll.
 */
public final class PostgresOutboxNotifier implements OutboxCommitListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresOutboxNotifier.class);

    private final DataSource dataSource;
    private final long minIntervalNanos;
    private final AtomicBoolean requested = new AtomicBoolean();
    private volatile boolean closed;
    private volatile int backendPid;
    private Connection connection;
    private Thread sender;
    private boolean failing;

    /** @param dataSource an unpooled data source: the sender keeps its connection for as long as it runs */
    public PostgresOutboxNotifier(DataSource dataSource, Duration minInterval) {
        this.dataSource = dataSource;
        this.minIntervalNanos = minInterval.toNanos();
    }

    public synchronized void start() {
        if (sender == null) {
            closed = false;
            sender = new Thread(this::run, "outbox-notify-sender");
            sender.setDaemon(true);
            sender.start();
        }
    }

    @Override
    public void outboxMessagesCommitted(int count) {
        if (!requested.getAndSet(true)) {
            LockSupport.unpark(sender);
        }
    }

    /**
     * The PostgreSQL backend process id of the sender's connection (0 before it connected): a listener on this
     * instance skips notifications from it, since its own relay was already woken in process.
     */
    public int backendPid() {
        return backendPid;
    }

    private void run() {
        while (!closed) {
            if (!requested.getAndSet(false)) {
                LockSupport.park(this);
                continue;
            }
            send();
            // Commits during this pause set the flag and are announced together by the next NOTIFY.
            pauseAfterSend();
        }
        closeConnection();
    }

    /**
     * Waits out {@code minInterval}, in a loop: a commit's {@code unpark} ends a {@code parkNanos} early, and one
     * park would let every commit send a {@code NOTIFY} of its own. Only {@link #close()} ends the pause early.
     */
    private void pauseAfterSend() {
        long deadline = System.nanoTime() + minIntervalNanos;
        long left;
        while (!closed && (left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(this, left);
        }
    }

    private void send() {
        try {
            if (connection == null) {
                connection = dataSource.getConnection();
                connection.setAutoCommit(true);
                backendPid = connection.unwrap(PGConnection.class).getBackendPID();
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("NOTIFY " + PostgresOutboxNotifications.CHANNEL);
            }
            if (failing) {
                LOG.info("Outbox notifications are sent again");
                failing = false;
            }
        } catch (SQLException e) {
            closeConnection();
            if (!failing) {
                LOG.warn("Cannot NOTIFY other instances of new outbox messages; their relays find them at their "
                        + "next poll: {}", e.toString());
                failing = true;
            }
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the connection is being discarded anyway
            }
            connection = null;
            backendPid = 0;
        }
    }

    /** Stops the sender after the announcement in progress, if any; waits up to a second for it. */
    @Override
    public void close() {
        Thread stopping;
        synchronized (this) {
            closed = true;
            stopping = sender;
            sender = null;
        }
        if (stopping != null) {
            LockSupport.unpark(stopping);
            try {
                stopping.join(TimeUnit.SECONDS.toMillis(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
