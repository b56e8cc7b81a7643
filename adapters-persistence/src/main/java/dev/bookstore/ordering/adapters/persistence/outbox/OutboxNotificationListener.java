package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.application.outbox.relay.RelayWakeUp;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Rings the relay's doorbell when another instance commits outbox rows (PostgreSQL {@code NOTIFY}), from a thread
 * of its own that waits on {@link PostgresOutboxNotifications}. While it cannot listen, it says so to the doorbell
 * and the relay falls back on its poll.
 */
public final class OutboxNotificationListener implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxNotificationListener.class);

    private final PostgresOutboxNotifications notifications;
    private final RelayWakeUp doorbell;
    private final Duration pollInterval;
    private volatile boolean running;
    private Thread thread;

    /** @param pollInterval how long one wait for a notification lasts, and the pause after a failed one */
    public OutboxNotificationListener(PostgresOutboxNotifications notifications, RelayWakeUp doorbell,
                                      Duration pollInterval) {
        this.notifications = notifications;
        this.doorbell = doorbell;
        this.pollInterval = pollInterval;
    }

    @Override
    public synchronized void start() {
        running = true;
        thread = new Thread(this::listen, "outbox-notify-listener");
        thread.setDaemon(true);
        thread.start();
    }

    private void listen() {
        boolean warned = false;
        try (notifications) {
            while (running) {
                try {
                    if (notifications.await(pollInterval)) {
                        doorbell.ring();
                    }
                    doorbell.otherInstancesRing(true);
                    warned = false;
                } catch (SQLException e) {
                    doorbell.otherInstancesRing(false);
                    if (!running) {
                        return;
                    }
                    if (!warned) {
                        LOG.warn("Cannot LISTEN for outbox notifications, relying on polling until it works: {}",
                                e.toString());
                        warned = true;
                    }
                    TimeUnit.NANOSECONDS.sleep(pollInterval.toNanos());
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
        doorbell.otherInstancesRing(false);
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
