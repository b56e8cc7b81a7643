-- Orders and their lines, written through JPA.
CREATE TABLE orders (
    id          uuid          PRIMARY KEY,
    customer_id uuid          NOT NULL,
    currency    varchar(3)    NOT NULL,
    total       numeric(19,4) NOT NULL,
    status      varchar(16)   NOT NULL CHECK (status IN ('PLACED', 'CANCELLED')),
    placed_at   timestamptz   NOT NULL,
    version     bigint        NOT NULL
);
CREATE INDEX orders_by_placed_at ON orders (placed_at DESC);

CREATE TABLE order_line (
    order_id   uuid          NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    line_no    integer       NOT NULL,
    book_id    varchar(64)   NOT NULL,
    quantity   integer       NOT NULL CHECK (quantity BETWEEN 1 AND 1000),
    unit_price numeric(19,4) NOT NULL CHECK (unit_price > 0),
    PRIMARY KEY (order_id, line_no)
);

-- The transactional outbox. A row is written in the same transaction as the change it announces and leaves
-- through the relay: PENDING -> (leased by claimed_by until claimed_until) -> PUBLISHED, or PARKED after
-- max-attempts failures. id is the event id and the AMQP message_id; nothing ever changes it.
CREATE TABLE outbox_message (
    id              uuid          PRIMARY KEY,
    aggregate_type  varchar(64)   NOT NULL,
    aggregate_id    varchar(64)   NOT NULL,
    type            varchar(128)  NOT NULL,
    exchange        varchar(255)  NOT NULL,
    routing_key     varchar(255)  NOT NULL,
    payload         jsonb         NOT NULL,
    headers         jsonb         NOT NULL DEFAULT '{}'::jsonb,
    occurred_at     timestamptz   NOT NULL,
    status          varchar(16)   NOT NULL DEFAULT 'PENDING',
    published_at    timestamptz,
    attempts        integer       NOT NULL DEFAULT 0,
    last_error      varchar(2000),
    next_attempt_at timestamptz   NOT NULL DEFAULT now(),
    claimed_by      varchar(128),
    claimed_until   timestamptz,
    CONSTRAINT outbox_message_status CHECK (status IN ('PENDING', 'PUBLISHED', 'PARKED')),
    CONSTRAINT outbox_message_published_iff_status CHECK ((status = 'PUBLISHED') = (published_at IS NOT NULL))
)
-- Half of every page stays free for the claim's new row versions. The lease columns are in no index, so where
-- the page has room the claim is a HOT update that writes no index entries. Measured on a 500-row claim:
-- fillfactor 80 left too little room (2,480 WAL records, 10-14 ms), 50 makes it HOT (1,000 records, 3-4 ms).
-- The cost is disk space for the backlog only: published rows are deleted by the retention job.
WITH (fillfactor = 50);
-- Only unpublished rows are indexed: the relay scans nothing else, and the index stays as small as the backlog.
CREATE INDEX outbox_message_unpublished ON outbox_message (occurred_at, id) WHERE published_at IS NULL;
-- Ordered mode looks for an earlier unpublished row of the same aggregate.
CREATE INDEX outbox_message_unpublished_by_aggregate
    ON outbox_message (aggregate_type, aggregate_id, occurred_at) WHERE published_at IS NULL;

-- The consumer side: one row per (consumer, message) already processed.
CREATE TABLE inbox_message (
    consumer    varchar(128) NOT NULL,
    message_id  uuid         NOT NULL,
    received_at timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_id)
);
CREATE INDEX inbox_message_by_received_at ON inbox_message (received_at);

-- Spring Modulith's JPA event publication registry (in-process listeners), as its entities map it.
CREATE TABLE event_publication (
    id                     uuid        PRIMARY KEY,
    listener_id            text        NOT NULL,
    event_type             text        NOT NULL,
    serialized_event       text        NOT NULL,
    publication_date       timestamptz NOT NULL,
    completion_date        timestamptz,
    status                 text,
    completion_attempts    integer,
    last_resubmission_date timestamptz
);
CREATE INDEX event_publication_by_completion_date ON event_publication (completion_date);
CREATE INDEX event_publication_serialized_event_hash ON event_publication USING hash (serialized_event);

CREATE TABLE event_publication_archive (
    id                     uuid        PRIMARY KEY,
    listener_id            text        NOT NULL,
    event_type             text        NOT NULL,
    serialized_event       text        NOT NULL,
    publication_date       timestamptz NOT NULL,
    completion_date        timestamptz,
    status                 text,
    completion_attempts    integer,
    last_resubmission_date timestamptz
);
