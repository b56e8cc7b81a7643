package dev.bookstore.ordering.bootstrap.relay;

import dev.bookstore.ordering.adapters.persistence.outbox.PostgresOutboxNotifications;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.IntSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Rings the relay's doorbell when another instance commits outbox rows (PostgreSQL {@code NOTIFY}). On other
 * databases it does nothing and the poll interval is the only wake-up across instances.
 */
public final class OutboxNotificationListener implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxNotificationListener.class);

    private final DataSource listenerDataSource;
    private final IntSupplier ownSenderPid;
    private final RelayWakeUp wakeUp;
    private final Duration pollInterval;
    private volatile boolean running;
    private Thread thread;
    private PostgresOutboxNotifications notifications;

    /**
     * @param listenerDataSource an unpooled data source, or null where the database has no NOTIFY
     * @param ownSenderPid       the backend pid of this instance's own notifier, whose notifications are skipped
     */
    public OutboxNotificationListener(DataSource listenerDataSource, IntSupplier ownSenderPid, RelayWakeUp wakeUp,
                                      Duration pollInterval) {
        this.listenerDataSource = listenerDataSource;
        this.ownSenderPid = ownSenderPid;
        this.wakeUp = wakeUp;
        this.pollInterval = pollInterval;
    }

    @Override
    public synchronized void start() {
        running = true;
        if (listenerDataSource == null) {
            return;
        }
        notifications = new PostgresOutboxNotifications(listenerDataSource, ownSenderPid);
        PostgresOutboxNotifications listening = notifications;
        thread = new Thread(() -> listen(listening), "outbox-notify-listener");
        thread.setDaemon(true);
        thread.start();
    }

    private void listen(PostgresOutboxNotifications notifications) {
        boolean warned = false;
        try (notifications) {
            while (running) {
                try {
                    if (notifications.await(pollInterval)) {
                        wakeUp.ring();
                    }
                    wakeUp.otherInstancesRing(true);
                    warned = false;
                } catch (SQLException e) {
                    wakeUp.otherInstancesRing(false);
                    if (!running) {
                        return;
                    }
                    if (!warned) {
                        LOG.warn("Cannot LISTEN for outbox notifications, relying on polling until it works: {}",
                                e.toString());
                        warned = true;
                    }
                    RelayWakeUp.pause(pollInterval);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the listening connection, which ends the blocked wait, and waits for the thread to finish. */
    @Override
    public synchronized void stop() {
        running = false;
        wakeUp.otherInstancesRing(false);
        if (thread != null) {
            notifications.close();
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
