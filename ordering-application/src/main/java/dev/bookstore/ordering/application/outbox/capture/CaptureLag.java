package dev.bookstore.ordering.application.outbox.capture;

import java.time.Instant;
import java.util.Objects;

/**
 * How far the change stream's reader is behind the database, in bytes of write-ahead log, measured at one moment.
 *
 * @param slotExists whether the replication slot exists (it is made by the first reader's start)
 * @param reading whether a reader streams from the slot now
 * @param lagBytes WAL written since the position the reader confirmed last (the broker confirmed everything
 *                 before it): changes not yet relayed are within it
 * @param retainedWalBytes WAL the server keeps for the slot and cannot recycle until the reader confirms past it
 * @param measuredAt when this was measured, by the database's clock
 * @param walPosition the current end of the WAL then, in bytes from its start
 * @param confirmedAt when the reader last committed its position (after the broker's confirms), by the database's
 *                    clock; null when it never did
 */
public record CaptureLag(boolean slotExists, boolean reading, long lagBytes, long retainedWalBytes,
                         Instant measuredAt, long walPosition, Instant confirmedAt) {

    public CaptureLag {
        Objects.requireNonNull(measuredAt, "measuredAt");
    }

    /** No slot yet: nothing is retained and nothing waits for it. */
    public static CaptureLag noSlot(Instant measuredAt, long walPosition) {
        return new CaptureLag(false, false, 0, 0, measuredAt, walPosition, null);
    }
}
