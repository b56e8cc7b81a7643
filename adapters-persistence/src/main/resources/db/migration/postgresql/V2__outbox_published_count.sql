-- Published messages are counted when they are marked, so the statistics never count published rows (a busy
-- outbox keeps millions of them until retention deletes them). Not one counter row but 64 slots: each relay
-- worker adds to the slot its lease owner hashes to, in the transaction that marks its batch published, so two
-- relays rarely update the same row and no order transaction ever touches this table. The total is the sum of
-- the 64 rows. It counts every message ever published, also those retention has deleted since.
CREATE TABLE outbox_published_count (
    slot      smallint PRIMARY KEY CHECK (slot BETWEEN 0 AND 63),
    published bigint   NOT NULL
);
INSERT INTO outbox_published_count (slot, published) SELECT slot, 0 FROM generate_series(0, 63) AS slot;
-- What was published before this version is counted once, here.
UPDATE outbox_published_count
   SET published = (SELECT count(*) FROM outbox_message WHERE published_at IS NOT NULL)
 WHERE slot = 0;
