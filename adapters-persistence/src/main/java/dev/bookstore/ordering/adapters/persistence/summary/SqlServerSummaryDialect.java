package dev.bookstore.ordering.adapters.persistence.summary;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.util.UUID;

/**
 * SQL Server: the id's check takes an update lock on the key (range) and holds it to the end of the transaction,
 * so a second transaction with the same id waits, then finds the row; the upserts are {@code MERGE}s under
 * {@code HOLDLOCK}, without which two could insert the same customer.
 */
final class SqlServerSummaryDialect implements SummaryDialect {

    @Override
    public String recordEvent() {
        return "INSERT INTO customer_order_summary_event (event_id) SELECT ? WHERE NOT EXISTS ("
                + "SELECT 1 FROM customer_order_summary_event WITH (UPDLOCK, HOLDLOCK) WHERE event_id = ?)";
    }

    @Override
    public Object[] recordEventParameters(UUID eventId) {
        return new Object[] {eventId.toString(), eventId.toString()};
    }

    @Override
    public String addPlaced() {
        return "MERGE INTO customer_order_summary WITH (HOLDLOCK) AS summary "
                + "USING (SELECT ? AS customer_id, ? AS placed_at) AS placed "
                + "ON summary.customer_id = placed.customer_id "
                + "WHEN MATCHED THEN UPDATE SET orders_placed = summary.orders_placed + 1, "
                + "last_order_at = CASE WHEN summary.last_order_at IS NULL "
                + "OR summary.last_order_at < placed.placed_at THEN placed.placed_at "
                + "ELSE summary.last_order_at END "
                + "WHEN NOT MATCHED THEN INSERT (customer_id, orders_placed, orders_cancelled, last_order_at) "
                + "VALUES (placed.customer_id, 1, 0, placed.placed_at);";
    }

    @Override
    public String addCancelled() {
        return "MERGE INTO customer_order_summary WITH (HOLDLOCK) AS summary "
                + "USING (SELECT ? AS customer_id) AS cancelled "
                + "ON summary.customer_id = cancelled.customer_id "
                + "WHEN MATCHED THEN UPDATE SET orders_cancelled = summary.orders_cancelled + 1 "
                + "WHEN NOT MATCHED THEN INSERT (customer_id, orders_placed, orders_cancelled, last_order_at) "
                + "VALUES (cancelled.customer_id, 0, 1, NULL);";
    }

    @Override
    public Database database() {
        return Database.SQL_SERVER;
    }
}
