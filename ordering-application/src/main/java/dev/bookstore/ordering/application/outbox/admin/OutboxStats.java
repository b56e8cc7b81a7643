package dev.bookstore.ordering.application.outbox.admin;

import java.time.Duration;

/**
 * The outbox as operators see it.
 *
 * @param pending messages not yet confirmed by the broker and not parked
 * @param parked messages that failed {@code max-attempts} times and wait for an operator
 * @param published messages ever confirmed by the broker and marked published, also those that retention has
 *                  deleted since
 * @param oldestPendingAge how long the oldest pending message has waited since the database stored it, by the
 *                         database's clock; zero when nothing is pending
 * @param nextLeaseEnd how long until the first live lease on a pending message ends, by the database's clock; null
 *                     when no pending message is leased. A relay that died holding a lease leaves its messages
 *                     unclaimable until then: the relays of the other instances look again at that moment.
 */
public record OutboxStats(long pending, long parked, long published, Duration oldestPendingAge,
                          Duration nextLeaseEnd) {

    /** Numbers with no live lease among them. */
    public OutboxStats(long pending, long parked, long published, Duration oldestPendingAge) {
        this(pending, parked, published, oldestPendingAge, null);
    }
}
