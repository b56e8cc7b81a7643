-- The Idempotency-Key of POST /orders: which order a customer's key placed, and a fingerprint of the request that
-- placed it (a SHA-256 of the parsed order, in hex), so a retry gets that order and a different request with the
-- same key is refused. Written in the transaction of its order. No foreign key to orders: the key is inserted
-- before its order, and checking a deferred constraint at every commit would cost what the key saves.
-- created_at is stamped by the database; keys older than ordering.idempotency.retention are deleted by a job.
CREATE TABLE idempotency_key (
    customer_id     uuid         NOT NULL,
    idempotency_key varchar(255) NOT NULL,
    request_hash    varchar(64)  NOT NULL,
    order_id        uuid         NOT NULL,
    created_at      timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (customer_id, idempotency_key)
);
-- The retention job looks for the oldest keys.
CREATE INDEX idempotency_key_by_created_at ON idempotency_key (created_at);
