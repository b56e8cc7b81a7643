package dev.bookstore.ordering.application.outbox.admin;

import java.util.UUID;

/** An operator gives up on a parked message: it is deleted and never sent. */
public interface DiscardParkedMessageUseCase {

    /**
     * @throws OutboxMessageNotFoundException when there is no such message
     * @throws OutboxMessageStateException when it is not parked
     */
    void discard(UUID id);
}
