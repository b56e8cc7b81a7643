package dev.bookstore.ordering.adapters.persistence.summary;

import dev.bookstore.ordering.adapters.persistence.Database;

/**
 * MariaDB: the id's insert is an {@code INSERT IGNORE} (update count 0 when the id is there; a second transaction
 * with the same id waits for the first, then finds it), the upserts are {@code INSERT ... ON DUPLICATE KEY UPDATE}
 * on the customer's primary key. {@code last_order_at} is a UTC {@code datetime(6)}.
 */
final class MariaDbSummaryDialect implements SummaryDialect {

    @Override
    public String recordEvent() {
        return "INSERT IGNORE INTO customer_order_summary_event (event_id) VALUES (?)";
    }

    @Override
    public String addPlaced() {
        return "INSERT INTO customer_order_summary (customer_id, orders_placed, orders_cancelled, last_order_at) "
                + "VALUES (?, 1, 0, ?) ON DUPLICATE KEY UPDATE orders_placed = orders_placed + 1, "
                + "last_order_at = GREATEST(COALESCE(last_order_at, VALUE(last_order_at)), VALUE(last_order_at))";
    }

    @Override
    public String addCancelled() {
        return "INSERT INTO customer_order_summary (customer_id, orders_placed, orders_cancelled, last_order_at) "
                + "VALUES (?, 0, 1, NULL) ON DUPLICATE KEY UPDATE orders_cancelled = orders_cancelled + 1";
    }

    @Override
    public Database database() {
        return Database.MARIADB;
    }
}
