package dev.bookstore.ordering.application.outbox.admin;

import java.util.UUID;

/** An operator sends parked messages again: pending, due at once, with a fresh attempt count. */
public interface RequeueParkedMessagesUseCase {

    /**
     * @throws OutboxMessageNotFoundException when there is no such message
     * @throws OutboxMessageStateException when it is not parked
     */
    void requeue(UUID id);

    /** Every parked message, a chunk at a time; returns how many were requeued. */
    int requeueAll();
}
