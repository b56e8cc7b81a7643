package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.application.outbox.OutboxCommitListener;
import java.time.Clock;
import java.util.UUID;

/**
 * Published messages made pending again, so the relay sends them as it sends everything: one path to the broker,
 * with confirms, retries and parking, and the original message id (the consumers' inbox key).
 */
public final class ResendPublishedMessagesService implements ResendPublishedMessagesUseCase {

    private final OutboxAdministration outbox;
    private final ReplayLimits limits;
    private final Clock clock;
    private final OutboxCommitListener changes;

    public ResendPublishedMessagesService(OutboxAdministration outbox, ReplayLimits limits, Clock clock,
                                          OutboxCommitListener changes) {
        this.outbox = outbox;
        this.limits = limits;
        this.clock = clock;
        this.changes = changes;
    }

    @Override
    public void resend(UUID id) {
        if (!outbox.resend(id)) {
            throw OutboxStates.unchanged(outbox, id, OutboxEntry.Status.PUBLISHED);
        }
        changes.outboxMessagesCommitted(1);
    }

    @Override
    public int replay(ReplaySelection selection) {
        limits.refusal(selection, clock.instant()).ifPresent(refusal -> {
            throw new InvalidReplayException(refusal.field(), refusal.reason());
        });
        long matching = outbox.countPublished(selection, limits.maxMessages());
        if (matching > limits.maxMessages()) {
            throw new InvalidReplayException(selection.byTime() ? "to" : "aggregateId",
                    "selects more than " + limits.maxMessages() + " published messages; narrow the selection");
        }
        // Bounded again by the statement itself, should rows have been published since the count.
        int resent = outbox.resendPublished(selection, limits.maxMessages());
        if (resent > 0) {
            changes.outboxMessagesCommitted(resent);
        }
        return resent;
    }
}
