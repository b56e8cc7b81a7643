-- The customer order summary (GET /customers/me/order-summary), kept by the in-process listener of the order
-- events. Expand only: two new tables, nothing an instance of the previous release reads or writes changes.
CREATE TABLE customer_order_summary (
    customer_id      uuid        PRIMARY KEY,
    orders_placed    bigint      NOT NULL,
    orders_cancelled bigint      NOT NULL,
    last_order_at    timestamptz
);

-- The ids of the events counted into the summary, inserted in the same transaction as the count: an event handed
-- over again (resubmitted, or on two instances) finds its id and changes nothing.
CREATE TABLE customer_order_summary_event (
    event_id     uuid        PRIMARY KEY,
    processed_at timestamptz NOT NULL DEFAULT now()
);
