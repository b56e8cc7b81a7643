-- The newest-first order lists sort by placed_at DESC, id DESC. InnoDB appends the primary key to a secondary
-- index in ascending order, so an index on placed_at DESC alone cannot give that order and MariaDB sorted the
-- table instead. With id DESC in the index the lists read their 20 entries from it.
ALTER TABLE orders
    DROP INDEX orders_by_placed_at,
    DROP INDEX orders_by_customer,
    ADD INDEX orders_by_placed_at (placed_at DESC, id DESC),
    ADD INDEX orders_by_customer (customer_id, placed_at DESC, id DESC);
