package dev.bookstore.ordering.application.outbox.capture;

/**
 * How far the change stream's reader is behind the database, in bytes of write-ahead log.
 *
 * @param slotExists whether the replication slot exists (it is made by the first reader's start)
 * @param reading whether a reader streams from the slot now
 * @param lagBytes WAL written since the position the reader confirmed last (the broker confirmed everything
 *                 before it): changes not yet relayed are within it
 * @param retainedWalBytes WAL the server keeps for the slot and cannot recycle until the reader confirms past it
 */
public record CaptureLag(boolean slotExists, boolean reading, long lagBytes, long retainedWalBytes) {

    public static final CaptureLag NO_SLOT = new CaptureLag(false, false, 0, 0);
}
