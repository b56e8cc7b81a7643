-- Published messages counted when they are marked, in 64 slots; see the PostgreSQL migration.
CREATE TABLE outbox_published_count (
    slot      smallint NOT NULL PRIMARY KEY CONSTRAINT outbox_published_count_slot CHECK (slot BETWEEN 0 AND 63),
    published bigint   NOT NULL
);
WITH slots AS (SELECT CAST(0 AS smallint) AS slot UNION ALL SELECT CAST(slot + 1 AS smallint) FROM slots WHERE slot < 63)
INSERT INTO outbox_published_count (slot, published) SELECT slot, 0 FROM slots;
UPDATE outbox_published_count
   SET published = (SELECT COUNT_BIG(*) FROM outbox_message WHERE published_at IS NOT NULL)
 WHERE slot = 0;
