-- A customer lists only its own orders (GET /orders with a customer's token): newest first, from an index.
CREATE INDEX orders_by_customer ON orders (customer_id, placed_at DESC);
