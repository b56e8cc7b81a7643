package dev.bookstore.ordering.application.outbox.capture;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.util.OptionalInt;

/**
 * A captured message's failures, kept in its outbox row: the attempts counted by every reader (a reader that takes
 * over goes on counting), and, once it can never be delivered, the row marked parked, so the administration API lists
 * it as it lists the polling relay's parked messages. Written on failures only, never for a delivered message.
 *
 * <p>A captured message is the row version it was read from: its id and its {@link OutboxMessage#position()}. A
 * row sent again by an operator is a new version (same id, new position), read again on its own; what is written
 * for the old capture never lands on it.
 */
public interface CapturedMessageParking {

    /** Where a parked message was stored. */
    enum Parked {
        /** Its row was marked parked. */
        ROW,
        /** Its row was gone (deleted by the retention): a parked row was stored again from the captured message. */
        STORED_AGAIN,
        /** A newer row with its id is queued (an operator sent it again): left to that row, nothing parked. */
        LEFT_TO_NEWER_ROW
    }

    /**
     * Counts one failed delivery on the message's row, with its error, and answers the row's failed attempts so far;
     * empty when that row is gone or is another version of the message.
     */
    OptionalInt recordFailure(OutboxMessage message, String error);

    /**
     * Stores the message as parked with its failed attempts and the last error: on its row, or from the captured
     * message when the row is gone, so that it can be listed and requeued; never on a newer row with its id.
     */
    Parked park(OutboxMessage message, int attempts, String error);

    /**
     * Stores a change that is no readable outbox message (a value that does not parse) as a parked row with the raw
     * data, so an operator sees it; the row read is marked parked where it still exists.
     */
    void parkUnreadable(UnreadableChange change);
}
