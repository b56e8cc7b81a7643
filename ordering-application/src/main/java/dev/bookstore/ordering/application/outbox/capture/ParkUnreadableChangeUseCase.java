package dev.bookstore.ordering.application.outbox.capture;

/**
 * A change of the outbox's log that is no readable outbox message is parked as read, never sent, and the stream goes
 * on past it: one bad value does not stop every message after it.
 */
public interface ParkUnreadableChangeUseCase {

    /** Stores the change as a parked row with its raw data; the caller then settles it. */
    void parkUnreadable(UnreadableChange change);
}
