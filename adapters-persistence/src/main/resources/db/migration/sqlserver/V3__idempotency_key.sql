-- The Idempotency-Key of POST /orders; see the PostgreSQL migration. The key is compared byte for byte
-- (a binary collation): the database's default collation would make "abc" and "ABC" the same key.
CREATE TABLE idempotency_key (
    customer_id     uniqueidentifier                      NOT NULL,
    idempotency_key varchar(255) COLLATE Latin1_General_BIN2 NOT NULL,
    request_hash    varchar(64)                           NOT NULL,
    order_id        uniqueidentifier                      NOT NULL,
    created_at      datetimeoffset(6)                     NOT NULL
                    CONSTRAINT idempotency_key_created_default DEFAULT SYSDATETIMEOFFSET(),
    CONSTRAINT idempotency_key_pk PRIMARY KEY (customer_id, idempotency_key)
);
CREATE INDEX idempotency_key_by_created_at ON idempotency_key (created_at);
