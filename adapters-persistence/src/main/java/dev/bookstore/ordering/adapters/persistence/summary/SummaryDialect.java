package dev.bookstore.ordering.adapters.persistence.summary;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The statements of the customer order summary ({@code customer_order_summary}) and of the event ids counted into it
 * ({@code customer_order_summary_event}) on one engine. Every write is one statement that neither reads first nor
 * loses a concurrent update: an upsert of the counter, an insert-if-absent of the id.
 */
sealed interface SummaryDialect permits PostgresSummaryDialect, SqlServerSummaryDialect, MariaDbSummaryDialect {

    static SummaryDialect of(Database database) {
        return database.pick(PostgresSummaryDialect::new, SqlServerSummaryDialect::new, MariaDbSummaryDialect::new);
    }

    /** The engine, whose bindings the parameters follow. */
    Database database();

    /** The same SQL on every engine. Parameter: customer. */
    String FIND = "SELECT orders_placed, orders_cancelled, last_order_at FROM customer_order_summary "
            + "WHERE customer_id = ?";

    /** Inserts the event id unless recorded; update count 1 when it was. */
    String recordEvent();

    default Object[] recordEventParameters(UUID eventId) {
        return new Object[] {database().id(eventId)};
    }

    /** Adds an order placed to the customer's counter. */
    String addPlaced();

    default Object[] addPlacedParameters(UUID customer, Instant placedAt) {
        return new Object[] {database().id(customer), database().timestamp(placedAt)};
    }

    String addCancelled();

    default Object[] addCancelledParameters(UUID customer) {
        return new Object[] {database().id(customer)};
    }

    /**
     * Where the engine can: {@link #recordEvent} and {@link #addPlaced} as one statement, one round trip fewer per
     * event; update count 1 when the event was counted. Empty where the two go one after the other.
     */
    default Optional<String> addPlacedOnce() {
        return Optional.empty();
    }

    /** Parameters of {@link #addPlacedOnce}: the event id, then those of {@link #addPlaced}. */
    default Object[] addPlacedOnceParameters(UUID eventId, UUID customer, Instant placedAt) {
        Object[] addPlaced = addPlacedParameters(customer, placedAt);
        Object[] parameters = new Object[addPlaced.length + 1];
        parameters[0] = database().id(eventId);
        System.arraycopy(addPlaced, 0, parameters, 1, addPlaced.length);
        return parameters;
    }
}
