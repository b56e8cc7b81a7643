-- The service's schema on MariaDB (10.11 and later), as PostgreSQL and SQL Server have it after V1 to V7: MariaDB
-- support starts at version 7, so this folder starts there and every engine's next migration is V8.
-- Choices the other engines do not need:
-- * ids are MariaDB's native uuid type (16 bytes), bound and read as text;
-- * payloads are json (a longtext that JSON_VALID checks);
-- * every point in time is a datetime(6) holding UTC: the service binds and reads it as UTC and the statements
--   compare it with UTC_TIMESTAMP(6). Not timestamp, which ends in 2038 and moves with the session's time zone;
-- * text compares byte for byte (utf8mb4_bin), as on PostgreSQL: idempotency keys "A" and "a" are two keys;
-- * no partial indexes: the relay's and the parked list's scans use (status, position), ordered mode
--   (aggregate_type, aggregate_id, published_at, position).

CREATE TABLE orders (
    id          uuid          NOT NULL PRIMARY KEY,
    customer_id uuid          NOT NULL,
    currency    varchar(3)    NOT NULL,
    total       decimal(19,4) NOT NULL,
    status      varchar(16)   NOT NULL,
    placed_at   datetime(6)   NOT NULL,
    version     bigint        NOT NULL,
    CONSTRAINT orders_status CHECK (status IN ('PLACED', 'CANCELLED')),
    INDEX orders_by_placed_at (placed_at DESC),
    INDEX orders_by_customer (customer_id, placed_at DESC)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE order_line (
    order_id   uuid          NOT NULL,
    line_no    int           NOT NULL,
    book_id    varchar(64)   NOT NULL,
    quantity   int           NOT NULL,
    unit_price decimal(19,4) NOT NULL,
    PRIMARY KEY (order_id, line_no),
    CONSTRAINT order_line_order FOREIGN KEY (order_id) REFERENCES orders (id) ON DELETE CASCADE,
    CONSTRAINT order_line_quantity CHECK (quantity BETWEEN 1 AND 1000),
    CONSTRAINT order_line_unit_price CHECK (unit_price > 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The transactional outbox (see the PostgreSQL scripts for each column's story). position is handed out by the
-- database at insert (AUTO_INCREMENT), created_at and next_attempt_at are the database's UTC clock at insert.
CREATE TABLE outbox_message (
    id              uuid          NOT NULL PRIMARY KEY,
    position        bigint        NOT NULL AUTO_INCREMENT,
    aggregate_type  varchar(64)   NOT NULL,
    aggregate_id    varchar(64)   NOT NULL,
    type            varchar(128)  NOT NULL,
    exchange        varchar(255)  NOT NULL,
    routing_key     varchar(255)  NOT NULL,
    payload         json          NOT NULL,
    headers         json          NOT NULL DEFAULT '{}',
    occurred_at     datetime(6)   NOT NULL,
    created_at      datetime(6)   NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    status          varchar(16)   NOT NULL DEFAULT 'PENDING',
    published_at    datetime(6)   NULL,
    attempts        int           NOT NULL DEFAULT 0,
    last_error      varchar(2000) NULL,
    next_attempt_at datetime(6)   NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    claimed_by      varchar(128)  NULL,
    claimed_until   datetime(6)   NULL,
    parked_at       datetime(6)   NULL,
    CONSTRAINT outbox_message_position_unique UNIQUE (position),
    CONSTRAINT outbox_message_status CHECK (status IN ('PENDING', 'PUBLISHED', 'PARKED')),
    CONSTRAINT outbox_message_published_iff_status CHECK ((status = 'PUBLISHED') = (published_at IS NOT NULL)),
    INDEX outbox_message_by_status (status, position),
    INDEX outbox_message_unpublished_by_aggregate (aggregate_type, aggregate_id, published_at, position)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Published messages counted in 64 slots, as on the other engines.
CREATE TABLE outbox_published_count (
    slot      smallint NOT NULL PRIMARY KEY,
    published bigint   NOT NULL,
    CONSTRAINT outbox_published_count_slot CHECK (slot BETWEEN 0 AND 63)
) ENGINE = InnoDB;
INSERT INTO outbox_published_count (slot, published) SELECT seq, 0 FROM seq_0_to_63;

CREATE TABLE idempotency_key (
    customer_id     uuid         NOT NULL,
    idempotency_key varchar(255) NOT NULL,
    request_hash    varchar(64)  NOT NULL,
    order_id        uuid         NOT NULL,
    created_at      datetime(6)  NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    PRIMARY KEY (customer_id, idempotency_key),
    INDEX idempotency_key_by_created_at (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE customer_order_summary (
    customer_id      uuid        NOT NULL PRIMARY KEY,
    orders_placed    bigint      NOT NULL,
    orders_cancelled bigint      NOT NULL,
    last_order_at    datetime(6) NULL
) ENGINE = InnoDB;

CREATE TABLE customer_order_summary_event (
    event_id     uuid        NOT NULL PRIMARY KEY,
    processed_at datetime(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6))
) ENGINE = InnoDB;

-- Spring Modulith's JDBC event publication registry, as its MariaDB schema has it (its SQL names the tables in
-- capitals, and MariaDB's table names are case-sensitive on Linux), with the serialized event as text rather than
-- varchar(4000), so no event is too long to record. Its own code binds and reads these columns.
CREATE TABLE EVENT_PUBLICATION (
    ID                     varchar(36)  NOT NULL PRIMARY KEY,
    LISTENER_ID            varchar(512) NOT NULL,
    EVENT_TYPE             varchar(512) NOT NULL,
    SERIALIZED_EVENT       text         NOT NULL,
    PUBLICATION_DATE       timestamp(6) NOT NULL,
    COMPLETION_DATE        timestamp(6) NULL DEFAULT NULL,
    STATUS                 varchar(20)  NULL,
    COMPLETION_ATTEMPTS    int          NULL,
    LAST_RESUBMISSION_DATE timestamp(6) NULL DEFAULT NULL,
    INDEX EVENT_PUBLICATION_BY_COMPLETION_DATE_IDX (COMPLETION_DATE)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE EVENT_PUBLICATION_ARCHIVE (
    ID                     varchar(36)  NOT NULL PRIMARY KEY,
    LISTENER_ID            varchar(512) NOT NULL,
    EVENT_TYPE             varchar(512) NOT NULL,
    SERIALIZED_EVENT       text         NOT NULL,
    PUBLICATION_DATE       timestamp(6) NOT NULL,
    COMPLETION_DATE        timestamp(6) NULL DEFAULT NULL,
    STATUS                 varchar(20)  NULL,
    COMPLETION_ATTEMPTS    int          NULL,
    LAST_RESUBMISSION_DATE timestamp(6) NULL DEFAULT NULL,
    INDEX EVENT_PUBLICATION_ARCHIVE_BY_COMPLETION_DATE_IDX (COMPLETION_DATE)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
