-- What the CDC relay needs to survive the loss of its replication slot (docs/cdc.md, "Recovering from a lost
-- slot"). A slot confirms WAL positions, not rows, and an outbox row's created_at is its transaction's start, not
-- its commit: these marks tie the two together.
--
-- A mark: horizon = the database's time, or the start of the oldest transaction then open in this database if
-- earlier; wal_position = the WAL's insert position read afterwards. Every row stored before the horizon was
-- committed before that position, so once the slot has confirmed past it (confirmed_at) every such row was
-- delivered. The retention deletes only rows older than the newest confirmed mark's horizon, and a recovery
-- sends again every row stored from it on.
CREATE TABLE outbox_cdc_mark (
    slot_name    varchar(63)  NOT NULL,
    wal_position pg_lsn       NOT NULL,
    horizon      timestamptz  NOT NULL,
    marked_at    timestamptz  NOT NULL DEFAULT now(),
    confirmed_at timestamptz,
    PRIMARY KEY (slot_name, wal_position)
);

-- One row per recovery of a lost slot: written before the slot is made again, finished once every row stored
-- from resend_from on was confirmed by the broker. An unfinished row is taken up again by the next reader.
CREATE TABLE outbox_cdc_recovery (
    slot_name    varchar(63)  NOT NULL,
    started_at   timestamptz  NOT NULL DEFAULT now(),
    resend_from  timestamptz  NOT NULL,
    resent       bigint       NOT NULL DEFAULT 0,
    finished_at  timestamptz,
    PRIMARY KEY (slot_name, started_at)
);
CREATE UNIQUE INDEX outbox_cdc_recovery_unfinished ON outbox_cdc_recovery (slot_name) WHERE finished_at IS NULL;
