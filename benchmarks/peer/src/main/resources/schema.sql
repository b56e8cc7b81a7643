-- A copy of the service's orders and order_line (its Flyway scripts for PostgreSQL, V1 and V4: same columns, types,
-- keys and indexes), so that an order costs the database the same here; when those tables change, change this with
-- them. A copy, not the scripts themselves: the peer stands alone. Run at every start (spring.sql.init.mode=always).
CREATE TABLE IF NOT EXISTS orders (
    id          uuid          PRIMARY KEY,
    customer_id uuid          NOT NULL,
    currency    varchar(3)    NOT NULL,
    total       numeric(19,4) NOT NULL,
    status      varchar(16)   NOT NULL CHECK (status IN ('PLACED', 'CANCELLED')),
    placed_at   timestamptz   NOT NULL,
    version     bigint        NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_by_placed_at ON orders (placed_at DESC);
CREATE INDEX IF NOT EXISTS orders_by_customer ON orders (customer_id, placed_at DESC);

CREATE TABLE IF NOT EXISTS order_line (
    order_id   uuid          NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    line_no    integer       NOT NULL,
    book_id    varchar(64)   NOT NULL,
    quantity   integer       NOT NULL CHECK (quantity BETWEEN 1 AND 1000),
    unit_price numeric(19,4) NOT NULL CHECK (unit_price > 0),
    PRIMARY KEY (order_id, line_no)
);
