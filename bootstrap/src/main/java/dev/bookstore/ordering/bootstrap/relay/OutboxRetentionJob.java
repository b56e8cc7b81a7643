package dev.bookstore.ordering.bootstrap.relay;

import dev.bookstore.ordering.application.port.out.OutboxStore;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Keeps the outbox from growing forever: deletes messages published longer ago than the retention, in
 * bounded chunks so that no statement holds many locks or a long transaction. Every instance may run it;
 * deleting an already deleted row is a no-op. The age is measured by the database's clock, the one that stamped
 * the rows published, so an instance whose clock is off deletes nothing early.
 */
public final class OutboxRetentionJob {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRetentionJob.class);

    private final OutboxStore outbox;
    private final Duration retention;
    private final int chunk;

    public OutboxRetentionJob(OutboxStore outbox, Duration retention, int chunk) {
        this.outbox = outbox;
        this.retention = retention;
        this.chunk = chunk;
    }

    @Scheduled(fixedDelayString = "${ordering.outbox.retention-interval:1m}",
            initialDelayString = "${ordering.outbox.retention-interval:1m}")
    public void deleteExpired() {
        try {
            int deleted = purge();
            if (deleted > 0) {
                LOG.info("Deleted {} outbox message(s) published more than {} ago", deleted, retention);
            }
        } catch (RuntimeException e) {
            LOG.warn("Outbox retention failed, will try again: {}", e.toString());
        }
    }

    /** Deletes chunk after chunk until a chunk comes back short; returns the total. */
    public int purge() {
        int total = 0;
        int deleted;
        do {
            deleted = outbox.deletePublishedOlderThan(retention, chunk);
            total += deleted;
        } while (deleted == chunk);
        return total;
    }
}
