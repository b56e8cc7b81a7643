package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.application.outbox.OutboxCommitListener;
import java.time.Clock;
import java.util.UUID;

/**
 * Sent messages queued again, so the relay sends them as it sends everything: one path to the broker, with confirms,
 * retries and parking, and the original message id (the consumers' inbox key). For the polling relay the published
 * rows are made pending; for a relay that reads inserts the rows not parked are inserted again.
 */
public final class ResendPublishedMessagesService implements ResendPublishedMessagesUseCase {

    private final OutboxAdministration outbox;
    private final ReplayLimits limits;
    private final Clock clock;
    private final OutboxCommitListener changes;
    private final boolean readsInserts;
    private final SendAgainGuard guard;

    /** @param guard refuses when no relay would see what this instance writes */
    public ResendPublishedMessagesService(OutboxAdministration outbox, ReplayLimits limits, Clock clock,
                                          OutboxCommitListener changes, RelayReading reading, SendAgainGuard guard) {
        this.outbox = outbox;
        this.limits = limits;
        this.clock = clock;
        this.changes = changes;
        this.readsInserts = reading == RelayReading.INSERTS;
        this.guard = guard;
    }

    @Override
    public void resend(UUID id) {
        guard.check();
        if (!(readsInserts ? outbox.insertAgain(id) : outbox.resend(id))) {
            // Rows a relay that reads inserts has sent stay pending.
            throw OutboxStates.unchanged(outbox, id,
                    readsInserts ? OutboxEntry.Status.PENDING : OutboxEntry.Status.PUBLISHED);
        }
        changes.outboxMessagesCommitted(1);
    }

    @Override
    public int replay(ReplaySelection selection) {
        guard.check();
        limits.refusal(selection, clock.instant()).ifPresent(refusal -> {
            throw new InvalidReplayException(refusal.field(), refusal.reason());
        });
        long matching = readsInserts ? outbox.countNotParked(selection, limits.maxMessages())
                : outbox.countPublished(selection, limits.maxMessages());
        if (matching > limits.maxMessages()) {
            throw new InvalidReplayException(selection.byTime() ? "to" : "aggregateId",
                    "selects more than " + limits.maxMessages() + " sent messages; narrow the selection");
        }
        // Bounded again by the statement itself, should rows have been published since the count.
        int resent = readsInserts ? outbox.insertAgain(selection, limits.maxMessages())
                : outbox.resendPublished(selection, limits.maxMessages());
        if (resent > 0) {
            changes.outboxMessagesCommitted(resent);
        }
        return resent;
    }
}
