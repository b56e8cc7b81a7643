package dev.bookstore.ordering.bootstrap.relay;

import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import dev.bookstore.ordering.application.outbox.relay.RelayWakeUp;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What each count of the outbox tells the relays of this instance. While messages are pending, every count rings
 * them. When a live lease on a pending message ends before the next regular count, the outbox is counted again just
 * after that moment: a relay that died holding a batch leaves it unclaimable until its lease ends, and the count
 * then rings the relays here, so they take the batch over within milliseconds of the lease end rather than at the
 * next count or the next idle poll. The moment comes from the database ({@link OutboxStats#nextLeaseEnd()}, its
 * {@code claimed_until} against its own {@code now()}), never from this host's clock.
 *
 * <p>A live relay's lease never ends while it is held: the relay records its outcomes well before. A lease that
 * reaches its end is a relay that died, froze or lost its database, so the extra counts happen only then.
 */
public final class PendingMessagesWakeUp implements Consumer<OutboxStats> {

    /** After the lease end, before the count: {@code claimed_until < now()} must hold when the relays claim. */
    static final Duration AFTER_LEASE_END = Duration.ofMillis(10);

    private final RelayWakeUp wakeUp;
    private final Duration refreshInterval;
    private final Consumer<Duration> countAgainIn;

    /**
     * @param refreshInterval how often the outbox is counted anyway: a lease ending later is seen by a later count
     * @param countAgainIn counts the outbox once more after the given delay, and hands the numbers to this listener
     */
    public PendingMessagesWakeUp(RelayWakeUp wakeUp, Duration refreshInterval, Consumer<Duration> countAgainIn) {
        this.wakeUp = Objects.requireNonNull(wakeUp, "wakeUp");
        this.refreshInterval = Objects.requireNonNull(refreshInterval, "refreshInterval");
        this.countAgainIn = Objects.requireNonNull(countAgainIn, "countAgainIn");
    }

    @Override
    public void accept(OutboxStats counted) {
        if (counted.pending() > 0) {
            wakeUp.ring();
        }
        Duration leaseEnd = counted.nextLeaseEnd();
        if (leaseEnd != null && leaseEnd.compareTo(refreshInterval) < 0) {
            countAgainIn.accept(leaseEnd.plus(AFTER_LEASE_END));
        }
    }
}
