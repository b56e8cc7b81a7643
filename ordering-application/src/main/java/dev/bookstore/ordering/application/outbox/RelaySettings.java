package dev.bookstore.ordering.application.outbox;

import java.time.Duration;
import java.util.Objects;

/**
 * The relay's policy knobs.
 *
 * @param owner identifies this relay in leases ({@code claimed_by}); unique per instance and worker
 * @param batchSize messages claimed and put in flight together
 * @param lease how long claimed messages stay reserved; must comfortably exceed {@code confirmTimeout}
 * @param confirmTimeout how long to wait for the broker's confirms of one batch
 * @param maxAttempts failed deliveries after which a message is parked
 * @param backoff delay before the next attempt of a failed message
 * @param ordered one in-flight message per aggregate, oldest first
 */
public record RelaySettings(String owner, int batchSize, Duration lease, Duration confirmTimeout, int maxAttempts,
                            Backoff backoff, boolean ordered) {

    public RelaySettings {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(confirmTimeout, "confirmTimeout");
        Objects.requireNonNull(backoff, "backoff");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, got " + batchSize);
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
        if (lease.compareTo(confirmTimeout.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("lease (%s) must be at least twice the confirm timeout (%s)"
                    .formatted(lease, confirmTimeout));
        }
    }
}
