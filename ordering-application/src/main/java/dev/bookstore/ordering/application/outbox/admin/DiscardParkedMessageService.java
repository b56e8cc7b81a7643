package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.application.outbox.OutboxCommitListener;
import java.util.UUID;

public final class DiscardParkedMessageService implements DiscardParkedMessageUseCase {

    private final OutboxAdministration outbox;
    private final OutboxCommitListener changes;

    public DiscardParkedMessageService(OutboxAdministration outbox, OutboxCommitListener changes) {
        this.outbox = outbox;
        this.changes = changes;
    }

    @Override
    public void discard(UUID id) {
        if (!outbox.deleteParked(id)) {
            throw OutboxStates.unchanged(outbox, id, OutboxEntry.Status.PARKED);
        }
        changes.outboxMessagesCommitted(1);
    }
}
