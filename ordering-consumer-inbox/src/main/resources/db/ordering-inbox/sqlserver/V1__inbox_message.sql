-- The inbox of ordering-events-consumer (JdbcInboxStore): one row per message a consumer processed. Run it with the
-- consuming service's own Flyway: copy it into its migrations, or add this location to a Flyway of its own.
CREATE TABLE inbox_message (
    consumer    varchar(128)      NOT NULL,
    message_id  uniqueidentifier  NOT NULL,
    received_at datetimeoffset(6) NOT NULL CONSTRAINT inbox_message_received_default DEFAULT SYSDATETIMEOFFSET(),
    CONSTRAINT inbox_message_pk PRIMARY KEY (consumer, message_id)
);
-- retention deletes the oldest first
CREATE INDEX inbox_message_by_received_at ON inbox_message (received_at);
