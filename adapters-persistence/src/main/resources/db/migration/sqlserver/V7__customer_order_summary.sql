-- The customer order summary, kept by the in-process listener of the order events; see the PostgreSQL migration.
-- Expand only: two new tables.
CREATE TABLE customer_order_summary (
    customer_id      uniqueidentifier  NOT NULL PRIMARY KEY,
    orders_placed    bigint            NOT NULL,
    orders_cancelled bigint            NOT NULL,
    last_order_at    datetimeoffset(6) NULL
);

-- The ids of the events counted into the summary, inserted in the same transaction as the count.
CREATE TABLE customer_order_summary_event (
    event_id     uniqueidentifier  NOT NULL PRIMARY KEY,
    processed_at datetimeoffset(6) NOT NULL DEFAULT SYSDATETIMEOFFSET()
);
