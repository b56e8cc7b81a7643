package dev.bookstore.ordering.application.outbox.capture;

import java.util.UUID;

/**
 * Where a captured message that can never be delivered is put aside for an operator: its outbox row is marked
 * parked, so the administration API lists it as it lists the polling relay's parked messages.
 */
public interface CapturedMessageParking {

    /** Marks the message's row parked with its failed attempts and the last error; a row already gone is ignored. */
    void park(UUID messageId, int attempts, String error);
}
