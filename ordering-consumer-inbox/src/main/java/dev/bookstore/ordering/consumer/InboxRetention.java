package dev.bookstore.ordering.consumer;

import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Keeps the inbox from growing forever: every {@code interval} it deletes the message ids received more than
 * {@code retention} ago, a chunk per statement (on MariaDB per short transaction). A bean of it in a context with
 * {@code @EnableScheduling} runs on every instance; instances skip each other's rows. Keep the retention longer than
 * any redelivery can come late (the broker's retention of a backlog): a message redelivered after it would be
 * processed again.
 */
public final class InboxRetention implements SchedulingConfigurer {

    /** Rows per statement at most: SQL Server escalates 5,000 row locks to a table lock. */
    public static final int MAX_CHUNK = 2_000;

    private static final Logger LOG = LoggerFactory.getLogger(InboxRetention.class);

    private final JdbcInboxStore inbox;
    private final Duration retention;
    private final Duration interval;
    private final int chunk;

    public InboxRetention(JdbcInboxStore inbox, Duration retention, Duration interval, int chunk) {
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.retention = Objects.requireNonNull(retention, "retention");
        this.interval = Objects.requireNonNull(interval, "interval");
        if (retention.toSeconds() < 1 || interval.toMillis() < 1) {
            throw new IllegalArgumentException("retention and interval must be positive: " + retention + ", "
                    + interval);
        }
        if (chunk < 1 || chunk > MAX_CHUNK) {
            throw new IllegalArgumentException("chunk must be between 1 and " + MAX_CHUNK + ", got " + chunk);
        }
        this.chunk = chunk;
    }

    /** Deletes chunk after chunk until one comes back short; the total. */
    public int purge() {
        int total = 0;
        while (true) {
            int deleted = inbox.deleteReceivedOlderThan(retention, chunk);
            total += deleted;
            if (deleted < chunk) {
                return total;
            }
        }
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(new FixedDelayTask(this::purgeAndLog, interval, interval));
    }

    /** Never throws, so the schedule goes on; the next run tries again. */
    private void purgeAndLog() {
        try {
            LOG.debug("Deleted {} inbox message id(s) received more than {} ago", purge(), retention);
        } catch (RuntimeException e) {
            LOG.warn("Deleting old inbox message ids failed, will try again: {}", e.toString());
        }
    }
}
