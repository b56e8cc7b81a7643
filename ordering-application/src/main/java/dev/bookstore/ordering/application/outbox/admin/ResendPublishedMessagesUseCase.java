package dev.bookstore.ordering.application.outbox.admin;

import java.util.UUID;

/**
 * An operator sends published messages again, each under its original message id, for a consumer that lost or
 * rebuilds its state. They go out through the relay like any pending message: confirmed, retried, parked after
 * max-attempts, in position order (and in ordered mode one per aggregate at a time).
 */
public interface ResendPublishedMessagesUseCase {

    /**
     * @throws OutboxMessageNotFoundException when there is no such message
     * @throws OutboxMessageStateException when it is not published (a pending one goes out anyway, a parked one
     *                                     is requeued); with a relay that reads inserts, when it is parked
     */
    void resend(UUID id);

    /**
     * Queues the sent messages of a bounded selection again (published ones; with a relay that reads inserts,
     * those not parked); returns how many.
     *
     * @throws InvalidReplayException when the selection is unbounded, too wide, reaches past the retention or
     *                                matches more messages than allowed (then nothing is queued)
     */
    int replay(ReplaySelection selection);
}
