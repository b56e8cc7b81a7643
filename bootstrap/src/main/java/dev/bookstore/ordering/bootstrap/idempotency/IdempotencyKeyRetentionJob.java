package dev.bookstore.ordering.bootstrap.idempotency;

import dev.bookstore.ordering.application.port.out.IdempotencyKeys;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Deletes idempotency keys older than the retention, in bounded chunks, each its own short statement. Every
 * instance runs it: the store skips the rows another instance is deleting, so instances never wait for each
 * other or delete a row twice.
 */
public final class IdempotencyKeyRetentionJob {

    private static final Logger LOG = LoggerFactory.getLogger(IdempotencyKeyRetentionJob.class);

    private final IdempotencyKeys keys;
    private final Duration retention;
    private final int chunk;

    public IdempotencyKeyRetentionJob(IdempotencyKeys keys, Duration retention, int chunk) {
        this.keys = keys;
        this.retention = retention;
        this.chunk = chunk;
    }

    @Scheduled(fixedDelayString = "${ordering.idempotency.retention-interval:1m}",
            initialDelayString = "${ordering.idempotency.retention-interval:1m}")
    public void deleteExpired() {
        try {
            int deleted = purge();
            if (deleted > 0) {
                LOG.info("Deleted {} idempotency key(s) recorded more than {} ago", deleted, retention);
            }
        } catch (RuntimeException e) {
            LOG.warn("Deleting expired idempotency keys failed, will try again: {}", e.toString());
        }
    }

    /** Deletes chunk after chunk until a chunk comes back short; returns the total. */
    public int purge() {
        int total = 0;
        int deleted;
        do {
            deleted = keys.deleteExpired(retention, chunk);
            total += deleted;
        } while (deleted == chunk);
        return total;
    }
}
