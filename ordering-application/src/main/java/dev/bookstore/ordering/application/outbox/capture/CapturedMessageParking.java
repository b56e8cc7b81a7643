package dev.bookstore.ordering.application.outbox.capture;

import java.util.OptionalInt;
import java.util.UUID;

/**
 * A captured message's failures, kept in its outbox row: the attempts counted by every reader (a reader that takes
 * over goes on counting), and, once it can never be delivered, the row marked parked, so the administration API lists
 * it as it lists the polling relay's parked messages. Written on failures only, never for a delivered message.
 */
public interface CapturedMessageParking {

    /**
     * Counts one failed delivery on the message's row, with its error, and answers the row's failed attempts so far;
     * empty when the row is gone.
     */
    OptionalInt recordFailure(UUID messageId, String error);

    /** Marks the message's row parked with its failed attempts and the last error; a row already gone is ignored. */
    void park(UUID messageId, int attempts, String error);
}
