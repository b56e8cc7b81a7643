-- Orders and their lines, written through JPA.
CREATE TABLE orders (
    id          uniqueidentifier  NOT NULL PRIMARY KEY,
    customer_id uniqueidentifier  NOT NULL,
    currency    varchar(3)        NOT NULL,
    total       numeric(19,4)     NOT NULL,
    status      varchar(16)       NOT NULL CHECK (status IN ('PLACED', 'CANCELLED')),
    placed_at   datetimeoffset(6) NOT NULL,
    version     bigint            NOT NULL
);
CREATE INDEX orders_by_placed_at ON orders (placed_at DESC);

CREATE TABLE order_line (
    order_id   uniqueidentifier NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    line_no    int              NOT NULL,
    book_id    varchar(64)      NOT NULL,
    quantity   int              NOT NULL CHECK (quantity BETWEEN 1 AND 1000),
    unit_price numeric(19,4)    NOT NULL CHECK (unit_price > 0),
    PRIMARY KEY (order_id, line_no)
);

-- The transactional outbox; see the PostgreSQL migration for the life of a row.
CREATE TABLE outbox_message (
    id              uniqueidentifier  NOT NULL PRIMARY KEY NONCLUSTERED,
    aggregate_type  varchar(64)       NOT NULL,
    aggregate_id    varchar(64)       NOT NULL,
    type            varchar(128)      NOT NULL,
    exchange        varchar(255)      NOT NULL,
    routing_key     varchar(255)      NOT NULL,
    payload         nvarchar(max)     NOT NULL CONSTRAINT outbox_message_payload_json CHECK (ISJSON(payload) = 1),
    headers         nvarchar(max)     NOT NULL CONSTRAINT outbox_message_headers_default DEFAULT N'{}'
                                      CONSTRAINT outbox_message_headers_json CHECK (ISJSON(headers) = 1),
    occurred_at     datetimeoffset(6) NOT NULL,
    status          varchar(16)       NOT NULL CONSTRAINT outbox_message_status_default DEFAULT 'PENDING',
    published_at    datetimeoffset(6) NULL,
    attempts        int               NOT NULL CONSTRAINT outbox_message_attempts_default DEFAULT 0,
    last_error      nvarchar(2000)    NULL,
    next_attempt_at datetimeoffset(6) NOT NULL CONSTRAINT outbox_message_next_attempt_default DEFAULT SYSDATETIMEOFFSET(),
    claimed_by      varchar(128)      NULL,
    claimed_until   datetimeoffset(6) NULL,
    CONSTRAINT outbox_message_status CHECK (status IN ('PENDING', 'PUBLISHED', 'PARKED')),
    CONSTRAINT outbox_message_published_iff_status CHECK (
        (status = 'PUBLISHED' AND published_at IS NOT NULL) OR (status <> 'PUBLISHED' AND published_at IS NULL))
);
-- Random uniqueidentifiers make a poor clustered key; cluster on time instead, as rows arrive.
CREATE CLUSTERED INDEX outbox_message_by_occurred_at ON outbox_message (occurred_at);
-- Filtered indexes: the relay scans only unpublished rows.
CREATE INDEX outbox_message_unpublished ON outbox_message (occurred_at, id)
    INCLUDE (status, next_attempt_at, claimed_until) WHERE published_at IS NULL;
CREATE INDEX outbox_message_unpublished_by_aggregate
    ON outbox_message (aggregate_type, aggregate_id, occurred_at) WHERE published_at IS NULL;

CREATE TABLE inbox_message (
    consumer    varchar(128)      NOT NULL,
    message_id  uniqueidentifier  NOT NULL,
    received_at datetimeoffset(6) NOT NULL CONSTRAINT inbox_message_received_default DEFAULT SYSDATETIMEOFFSET(),
    PRIMARY KEY (consumer, message_id)
);
CREATE INDEX inbox_message_by_received_at ON inbox_message (received_at);

-- Spring Modulith's JPA event publication registry (in-process listeners), as its entities map it.
CREATE TABLE event_publication (
    id                     uniqueidentifier  NOT NULL PRIMARY KEY,
    listener_id            nvarchar(512)     NOT NULL,
    event_type             nvarchar(512)     NOT NULL,
    serialized_event       nvarchar(max)     NOT NULL,
    publication_date       datetimeoffset(6) NOT NULL,
    completion_date        datetimeoffset(6) NULL,
    status                 nvarchar(32)      NULL,
    completion_attempts    int               NULL,
    last_resubmission_date datetimeoffset(6) NULL
);
CREATE INDEX event_publication_by_completion_date ON event_publication (completion_date);

CREATE TABLE event_publication_archive (
    id                     uniqueidentifier  NOT NULL PRIMARY KEY,
    listener_id            nvarchar(512)     NOT NULL,
    event_type             nvarchar(512)     NOT NULL,
    serialized_event       nvarchar(max)     NOT NULL,
    publication_date       datetimeoffset(6) NOT NULL,
    completion_date        datetimeoffset(6) NULL,
    status                 nvarchar(32)      NULL,
    completion_attempts    int               NULL,
    last_resubmission_date datetimeoffset(6) NULL
);
