package dev.bookstore.ordering.bootstrap.relay;

import dev.bookstore.ordering.adapters.persistence.outbox.PostgresOutboxNotifications;
import java.sql.SQLException;
import java.time.Duration;
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
    private final RelayWakeUp wakeUp;
    private final Duration pollInterval;
    private volatile boolean running;
    private Thread thread;
    private PostgresOutboxNotifications notifications;

    /** @param listenerDataSource an unpooled data source, or null where the database has no NOTIFY */
    public OutboxNotificationListener(DataSource listenerDataSource, RelayWakeUp wakeUp, Duration pollInterval) {
        this.listenerDataSource = listenerDataSource;
        this.wakeUp = wakeUp;
        this.pollInterval = pollInterval;
    }

    @Override
    public synchronized void start() {
        running = true;
        if (listenerDataSource == null) {
            return;
        }
        notifications = new PostgresOutboxNotifications(listenerDataSource);
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
                    warned = false;
                } catch (SQLException e) {
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
