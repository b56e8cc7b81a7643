package dev.bookstore.ordering.application.summary;

import dev.bookstore.ordering.domain.order.CustomerId;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Where the customers' order summaries and the ids of the events counted into them are kept. Writes join the caller's transaction. */
public interface CustomerOrderSummaries {

    /**
     * Records that the event was counted, unless it was already: {@code true} the first time. A concurrent
     * transaction recording the same id makes this one wait for its outcome, then answer {@code false} if it
     * committed.
     */
    boolean recordEvent(UUID eventId);

    /** One more order placed, at {@code placedAt} (the newest order time is kept, whatever the arrival order). */
    void addPlaced(CustomerId customer, Instant placedAt);

    /**
     * One more order placed, counted once per event: {@link #recordEvent}, then {@link #addPlaced} if it was the
     * first time; {@code true} then. A store may do both in one statement, with the same outcome.
     */
    default boolean addPlacedOnce(UUID eventId, CustomerId customer, Instant placedAt) {
        if (!recordEvent(eventId)) {
            return false;
        }
        addPlaced(customer, placedAt);
        return true;
    }

    /** One more order cancelled. */
    void addCancelled(CustomerId customer);

    Optional<CustomerOrderSummary> find(CustomerId customer);
}
