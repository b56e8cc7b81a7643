package dev.bookstore.ordering.application.outbox.admin;

import java.util.UUID;

public final class DiscardParkedMessageService implements DiscardParkedMessageUseCase {

    private final OutboxAdministration outbox;

    public DiscardParkedMessageService(OutboxAdministration outbox) {
        this.outbox = outbox;
    }

    @Override
    public void discard(UUID id) {
        if (!outbox.deleteParked(id)) {
            throw OutboxStates.unchanged(outbox, id, OutboxEntry.Status.PARKED);
        }
    }
}
