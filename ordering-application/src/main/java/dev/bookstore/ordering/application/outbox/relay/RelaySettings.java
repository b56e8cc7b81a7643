package dev.bookstore.ordering.application.outbox.relay;

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
 * @param channelErrorRetries consecutive rounds in which the broker closed the channel over something it refused
 *                            ({@link PublishResult.Outcome#CHANNEL_CLOSED}) that are released untried; the round
 *                            after them publishes one message at a time and charges the close to the message it
 *                            follows
 * @param unroutable what a message no queue took ({@link PublishResult.Outcome#RETURNED}) becomes
 */
public record RelaySettings(String owner, int batchSize, Duration lease, Duration confirmTimeout, int maxAttempts,
                            Backoff backoff, boolean ordered, int channelErrorRetries, Unroutable unroutable) {

    /** What to do with a message that no queue took: the exchange had no binding for its routing key. */
    public enum Unroutable {
        /** An attempt, retried with backoff and parked after {@code maxAttempts} (a binding may be on its way). */
        RETRY,
        /** Parked at once, for an operator to see. */
        PARK,
        /** Counted as published (nobody wanted it: fine for a fan-out with no subscriber yet), with a warning. */
        PUBLISH
    }

    public RelaySettings {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(confirmTimeout, "confirmTimeout");
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(unroutable, "unroutable");
        if (channelErrorRetries < 0) {
            throw new IllegalArgumentException("channelErrorRetries must not be negative, got " + channelErrorRetries);
        }
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
