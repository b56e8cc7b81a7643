-- The outbox is ordered and timed by the database, never by the clock of the instance that wrote a row.
-- position: a number the database hands out at insert; the claim order and ordered mode's "oldest unpublished
--   row of its aggregate". occurred_at stays as information (the AMQP timestamp): two instances whose clocks
--   differ would otherwise reorder the messages of one order.
-- created_at: stamped by the database at insert; the pending age is measured from it.
-- Both come from column defaults, so an instance of the previous release that inserts without naming them
-- still gets them.
CREATE SEQUENCE outbox_message_position_seq AS bigint;
ALTER TABLE outbox_message ADD COLUMN position bigint, ADD COLUMN created_at timestamptz;

-- Rows already there are numbered in the order the claim used so far, and were created when they occurred.
UPDATE outbox_message m
   SET position = numbered.position, created_at = m.occurred_at
  FROM (SELECT id, row_number() OVER (ORDER BY occurred_at, id) AS position FROM outbox_message) numbered
 WHERE m.id = numbered.id;
SELECT setval('outbox_message_position_seq', COALESCE((SELECT max(position) FROM outbox_message), 0) + 1, false);

ALTER TABLE outbox_message
    ALTER COLUMN position SET DEFAULT nextval('outbox_message_position_seq'),
    ALTER COLUMN position SET NOT NULL,
    ALTER COLUMN created_at SET DEFAULT now(),
    ALTER COLUMN created_at SET NOT NULL,
    ADD CONSTRAINT outbox_message_position_unique UNIQUE (position);
ALTER SEQUENCE outbox_message_position_seq OWNED BY outbox_message.position;

-- The relay scans unpublished rows by position, and ordered mode an aggregate's unpublished rows by position.
-- Nothing orders by occurred_at any more. position never changes after the insert, so the lease update stays
-- HOT (the table keeps its fillfactor 50).
DROP INDEX outbox_message_unpublished;
CREATE INDEX outbox_message_unpublished ON outbox_message (position) WHERE published_at IS NULL;
DROP INDEX outbox_message_unpublished_by_aggregate;
CREATE INDEX outbox_message_unpublished_by_aggregate
    ON outbox_message (aggregate_type, aggregate_id, position) WHERE published_at IS NULL;
