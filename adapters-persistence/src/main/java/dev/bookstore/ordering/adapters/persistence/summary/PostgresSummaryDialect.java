package dev.bookstore.ordering.adapters.persistence.summary;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.util.Optional;

/**
 * PostgreSQL: {@code ON CONFLICT}. A transaction inserting an event id that another, unfinished transaction
 * inserted waits for it, then inserts nothing if it committed.
 */
final class PostgresSummaryDialect implements SummaryDialect {

    private static final String UPSERT_PLACED = "ON CONFLICT (customer_id) DO UPDATE SET "
            + "orders_placed = customer_order_summary.orders_placed + 1, "
            + "last_order_at = GREATEST(customer_order_summary.last_order_at, EXCLUDED.last_order_at)";

    @Override
    public String recordEvent() {
        return "INSERT INTO customer_order_summary_event (event_id) VALUES (?) ON CONFLICT (event_id) DO NOTHING";
    }

    @Override
    public String addPlaced() {
        return "INSERT INTO customer_order_summary (customer_id, orders_placed, orders_cancelled, last_order_at) "
                + "VALUES (?, 1, 0, ?) " + UPSERT_PLACED;
    }

    @Override
    public String addCancelled() {
        return "INSERT INTO customer_order_summary (customer_id, orders_placed, orders_cancelled, last_order_at) "
                + "VALUES (?, 0, 1, NULL) ON CONFLICT (customer_id) DO UPDATE SET "
                + "orders_cancelled = customer_order_summary.orders_cancelled + 1";
    }

    /** The counter's upsert reads the id's insert, which returns a row only where the id was absent. */
    @Override
    public Optional<String> addPlacedOnce() {
        return Optional.of("WITH recorded AS (INSERT INTO customer_order_summary_event (event_id) VALUES (?) "
                + "ON CONFLICT (event_id) DO NOTHING RETURNING event_id) "
                + "INSERT INTO customer_order_summary "
                + "(customer_id, orders_placed, orders_cancelled, last_order_at) "
                + "SELECT ?, 1, 0, ? FROM recorded " + UPSERT_PLACED);
    }

    @Override
    public Database database() {
        return Database.POSTGRESQL;
    }
}
