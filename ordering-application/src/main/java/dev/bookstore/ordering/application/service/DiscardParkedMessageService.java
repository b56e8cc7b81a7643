package dev.bookstore.ordering.application.service;

import dev.bookstore.ordering.application.outbox.OutboxEntry;
import dev.bookstore.ordering.application.port.in.DiscardParkedMessageUseCase;
import dev.bookstore.ordering.application.port.out.OutboxAdministration;
import java.util.UUID;

final class DiscardParkedMessageService implements DiscardParkedMessageUseCase {

    private final OutboxAdministration outbox;

    DiscardParkedMessageService(OutboxAdministration outbox) {
        this.outbox = outbox;
    }

    @Override
    public void discard(UUID id) {
        if (!outbox.deleteParked(id)) {
            throw OutboxStates.unchanged(outbox, id, OutboxEntry.Status.PARKED);
        }
    }
}
