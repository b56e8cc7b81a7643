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
 * @param slotLost whether the slot is lost: missing although offsets were committed for it, invalidated by the
 *                 server ({@code wal_status = 'lost'}), or being recovered. Changes stored since its last
 *                 confirmed position exist only in the outbox table then, until a recovery sends them again
 */
public record CaptureLag(boolean slotExists, boolean reading, long lagBytes, long retainedWalBytes,
                         Instant measuredAt, long walPosition, Instant confirmedAt, boolean slotLost) {

    public CaptureLag {
        Objects.requireNonNull(measuredAt, "measuredAt");
    }

    /** A slot that is not lost. */
    public CaptureLag(boolean slotExists, boolean reading, long lagBytes, long retainedWalBytes,
                      Instant measuredAt, long walPosition, Instant confirmedAt) {
        this(slotExists, reading, lagBytes, retainedWalBytes, measuredAt, walPosition, confirmedAt, false);
    }

    /** No slot yet: nothing is retained and nothing waits for it. */
    public static CaptureLag noSlot(Instant measuredAt, long walPosition) {
        return new CaptureLag(false, false, 0, 0, measuredAt, walPosition, null);
    }
}
