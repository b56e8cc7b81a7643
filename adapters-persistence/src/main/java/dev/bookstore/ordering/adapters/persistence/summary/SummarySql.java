package dev.bookstore.ordering.adapters.persistence.summary;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;

/**
 * The statements of the customer order summary ({@code customer_order_summary}) and of the ids of the events
 * counted into it ({@code customer_order_summary_event}), per database. Every write is one statement that
 * neither reads first nor loses a concurrent update: an upsert of the counter, an insert-if-absent of the id.
 * Where the database can, an order placed is counted by one statement doing both ({@link #addPlacedOnce}): the
 * listener's transaction then makes one round trip fewer per event.
 */
record SummarySql(Database database, String recordEvent, String addPlaced, String addCancelled,
                  Optional<String> addPlacedOnce) {

    /** The same SQL on PostgreSQL and SQL Server. Parameter: customer. */
    static final String FIND = "SELECT orders_placed, orders_cancelled, last_order_at FROM customer_order_summary "
            + "WHERE customer_id = ?";

    /**
     * PostgreSQL: {@code ON CONFLICT}. A transaction inserting an event id another, unfinished transaction
     * inserted waits for it, then inserts nothing if it committed.
     */
    static final SummarySql POSTGRES = new SummarySql(Database.POSTGRESQL,
            "INSERT INTO customer_order_summary_event (event_id) VALUES (?) ON CONFLICT (event_id) DO NOTHING",
            "INSERT INTO customer_order_summary (customer_id, orders_placed, orders_cancelled, last_order_at) "
                    + "VALUES (?, 1, 0, ?) ON CONFLICT (customer_id) DO UPDATE SET "
                    + "orders_placed = customer_order_summary.orders_placed + 1, "
                    + "last_order_at = GREATEST(customer_order_summary.last_order_at, EXCLUDED.last_order_at)",
            "INSERT INTO customer_order_summary (customer_id, orders_placed, orders_cancelled, last_order_at) "
                    + "VALUES (?, 0, 1, NULL) ON CONFLICT (customer_id) DO UPDATE SET "
                    + "orders_cancelled = customer_order_summary.orders_cancelled + 1",
            // recordEvent and addPlaced as one statement: the upsert of the counter reads the id's insert, which
            // returns a row only where the id was absent (and waits, like recordEvent, for a transaction inserting it)
            Optional.of("WITH recorded AS (INSERT INTO customer_order_summary_event (event_id) VALUES (?) "
                    + "ON CONFLICT (event_id) DO NOTHING RETURNING event_id) "
                    + "INSERT INTO customer_order_summary "
                    + "(customer_id, orders_placed, orders_cancelled, last_order_at) "
                    + "SELECT ?, 1, 0, ? FROM recorded ON CONFLICT (customer_id) DO UPDATE SET "
                    + "orders_placed = customer_order_summary.orders_placed + 1, "
                    + "last_order_at = GREATEST(customer_order_summary.last_order_at, EXCLUDED.last_order_at)"));

    /**
     * SQL Server: the check takes an update lock on the key (range) and holds it to the end of the transaction,
     * so a second transaction with the same id waits, then finds the row; the upserts are {@code MERGE}s under
     * {@code HOLDLOCK}, which without it could both insert the same customer.
     */
    static final SummarySql SQL_SERVER = new SummarySql(Database.SQL_SERVER,
            "INSERT INTO customer_order_summary_event (event_id) SELECT ? WHERE NOT EXISTS ("
                    + "SELECT 1 FROM customer_order_summary_event WITH (UPDLOCK, HOLDLOCK) WHERE event_id = ?)",
            "MERGE INTO customer_order_summary WITH (HOLDLOCK) AS summary "
                    + "USING (SELECT ? AS customer_id, ? AS placed_at) AS placed "
                    + "ON summary.customer_id = placed.customer_id "
                    + "WHEN MATCHED THEN UPDATE SET orders_placed = summary.orders_placed + 1, "
                    + "last_order_at = CASE WHEN summary.last_order_at IS NULL "
                    + "OR summary.last_order_at < placed.placed_at THEN placed.placed_at "
                    + "ELSE summary.last_order_at END "
                    + "WHEN NOT MATCHED THEN INSERT (customer_id, orders_placed, orders_cancelled, last_order_at) "
                    + "VALUES (placed.customer_id, 1, 0, placed.placed_at);",
            "MERGE INTO customer_order_summary WITH (HOLDLOCK) AS summary "
                    + "USING (SELECT ? AS customer_id) AS cancelled "
                    + "ON summary.customer_id = cancelled.customer_id "
                    + "WHEN MATCHED THEN UPDATE SET orders_cancelled = summary.orders_cancelled + 1 "
                    + "WHEN NOT MATCHED THEN INSERT (customer_id, orders_placed, orders_cancelled, last_order_at) "
                    + "VALUES (cancelled.customer_id, 0, 1, NULL);",
            // recordEvent, then addPlaced
            Optional.empty());

    static SummarySql of(Database database) {
        return switch (database) {
            case POSTGRESQL -> POSTGRES;
            case SQL_SERVER -> SQL_SERVER;
        };
    }

    Object[] recordEventParameters(UUID eventId) {
        return switch (database) {
            case POSTGRESQL -> new Object[] {eventId};
            case SQL_SERVER -> new Object[] {eventId.toString(), eventId.toString()};
        };
    }

    Object[] addPlacedParameters(UUID customer, Instant placedAt) {
        return new Object[] {id(customer), OffsetDateTime.ofInstant(placedAt, ZoneOffset.UTC)};
    }

    /** Parameters of {@link #addPlacedOnce}: the event id, then those of {@link #addPlaced}. */
    Object[] addPlacedOnceParameters(UUID eventId, UUID customer, Instant placedAt) {
        Object[] addPlaced = addPlacedParameters(customer, placedAt);
        Object[] parameters = new Object[addPlaced.length + 1];
        parameters[0] = id(eventId);
        System.arraycopy(addPlaced, 0, parameters, 1, addPlaced.length);
        return parameters;
    }

    Object[] addCancelledParameters(UUID customer) {
        return new Object[] {id(customer)};
    }

    /** An id as the driver binds it ({@link Database#id}). */
    Object id(UUID id) {
        return database.id(id);
    }
}
