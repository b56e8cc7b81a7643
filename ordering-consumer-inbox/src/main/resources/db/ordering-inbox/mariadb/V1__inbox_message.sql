-- The inbox of ordering-events-consumer (JdbcInboxStore): one row per message a consumer processed. Run it with the
-- consuming service's own Flyway: copy it into its migrations, or add this location to a Flyway of its own.
-- On MariaDB (10.11 and later) it differs from PostgreSQL's: message_id is MariaDB's native uuid type, bound as
-- text; received_at is a datetime(6) holding UTC, stamped and compared with UTC_TIMESTAMP(6) (not timestamp, which
-- ends in 2038 and moves with the session's time zone); consumer names compare byte for byte (utf8mb4_bin).
CREATE TABLE inbox_message (
    consumer    varchar(128) NOT NULL,
    message_id  uuid         NOT NULL,
    received_at datetime(6)  NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    CONSTRAINT inbox_message_pk PRIMARY KEY (consumer, message_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
-- retention deletes the oldest first
CREATE INDEX inbox_message_by_received_at ON inbox_message (received_at);
