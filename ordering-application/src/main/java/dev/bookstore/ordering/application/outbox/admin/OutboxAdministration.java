package dev.bookstore.ordering.application.outbox.admin;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The outbox table as an operator reads and repairs it. Every method is one short auto-committed statement, and
 * every change names the state it expects in its {@code WHERE}, so an operator racing the relay or another operator
 * changes nothing that moved meanwhile.
 */
public interface OutboxAdministration {

    /** The row with this id, in any state. */
    Optional<OutboxEntry> find(UUID id);

    /** Up to {@code limit} parked rows with a position above {@code afterPosition}, lowest position first. */
    List<OutboxEntry> parked(long afterPosition, int limit);

    /** The highest position given to a row so far (0 for none): rows inserted from now on come after it. */
    long lastPosition();

    /** Makes parked messages pending again, due at once with a fresh attempt count; returns how many. */
    int unpark(Collection<UUID> ids);

    /** Deletes the row if it is parked; false when there is no parked row with this id. */
    boolean deleteParked(UUID id);

    /**
     * Makes a published row pending again, due at once with no attempts and no lease, so the relay publishes it
     * again under the same message id; false when there is no published row with this id.
     */
    boolean resend(UUID id);

    /** How many published rows the selection matches, counting at most {@code atMost} + 1. */
    long countPublished(ReplaySelection selection, int atMost);

    /** {@link #resend} for up to {@code limit} published rows of the selection, lowest position first. */
    int resendPublished(ReplaySelection selection, int limit);

    // For a relay that reads inserts only (RelayReading.INSERTS, PostgreSQL): each statement deletes the rows and
    // inserts them again, pending with fresh attempts and the same id and content, so the change log carries them
    // once more; rows of one statement are inserted in their old order.

    /** Inserts parked messages again, pending with a fresh attempt count; returns how many. */
    int insertParkedAgain(Collection<UUID> ids);

    /** Inserts the row again if it is not parked; false when there is no such row that is not parked. */
    boolean insertAgain(UUID id);

    /** How many rows of the selection are not parked, counting at most {@code atMost} + 1. */
    long countNotParked(ReplaySelection selection, int atMost);

    /** {@link #insertAgain(UUID)} for up to {@code limit} rows of the selection not parked, lowest position first. */
    int insertAgain(ReplaySelection selection, int limit);
}
