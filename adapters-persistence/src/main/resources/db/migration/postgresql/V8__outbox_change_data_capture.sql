-- The CDC relay (ordering.outbox.relay=cdc) reads the outbox from the write-ahead log. Both objects cost nothing
-- while no replication slot uses them, so every PostgreSQL deployment gets them and can switch relays without a
-- schema change. Other engines have no CDC relay and no V8.
--
-- The publication carries inserts into outbox_message only: the polling relay's claims, the CDC relay's parking
-- and the retention's deletes are never decoded. CREATE PUBLICATION needs no wal_level=logical (the server
-- only warns); reading it does.
CREATE PUBLICATION ordering_outbox FOR TABLE outbox_message WITH (publish = 'insert');

-- Debezium's offsets, one set per replication slot, written when the CDC relay commits after the broker's
-- confirms: a restart resumes from the last committed position.
CREATE TABLE outbox_cdc_offset (
    slot_name    varchar(63)  NOT NULL,
    offset_key   bytea        NOT NULL,
    offset_value bytea        NOT NULL,
    committed_at timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (slot_name, offset_key)
);
