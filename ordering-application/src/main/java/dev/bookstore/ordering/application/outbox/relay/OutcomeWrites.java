package dev.bookstore.ordering.application.outbox.relay;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The outcome writes of one relayed batch, run again with backoff while they fail (a database hiccup), until the
 * given time: one confirm timeout before the batch's lease ends, so a short hiccup costs no republish. Retrying is
 * safe: a write takes effect only where the relay still holds the lease, which the first successful write clears.
 * When the time is up, the last failure is thrown and the rows wait for their lease to expire.
 */
final class OutcomeWrites {

    private static final System.Logger LOG = System.getLogger(OutboxRelayService.class.getName());
    /** The first wait before a write is tried again; it doubles up to {@link #RETRY_MAX}. */
    private static final Duration RETRY_INITIAL = Duration.ofMillis(50);
    private static final Duration RETRY_MAX = Duration.ofSeconds(1);

    private final Clock clock;
    private final Instant giveUpAt;

    OutcomeWrites(Clock clock, Instant giveUpAt) {
        this.clock = clock;
        this.giveUpAt = giveUpAt;
    }

    void run(String what, Runnable write) {
        Duration delay = RETRY_INITIAL;
        while (true) {
            try {
                write.run();
                return;
            } catch (RuntimeException e) {
                if (!clock.instant().plus(delay).isBefore(giveUpAt)) {
                    throw e;
                }
                LOG.log(System.Logger.Level.WARNING, "Outbox outcome write ({0}) failed, trying again in {1}: {2}",
                        what, delay, e.toString());
                try {
                    Thread.sleep(delay.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                Duration doubled = delay.multipliedBy(2);
                delay = doubled.compareTo(RETRY_MAX) > 0 ? RETRY_MAX : doubled;
            }
        }
    }
}
