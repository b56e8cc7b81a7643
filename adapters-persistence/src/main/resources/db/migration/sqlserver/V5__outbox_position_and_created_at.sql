-- The outbox is ordered and timed by the database, never by the clock of the instance that wrote a row; see the
-- PostgreSQL migration. position comes from a sequence, created_at from SYSDATETIMEOFFSET(), both as column
-- defaults, so an instance of the previous release that inserts without naming them still gets them.
CREATE SEQUENCE outbox_message_position AS bigint START WITH 1 INCREMENT BY 1;
ALTER TABLE outbox_message ADD position bigint NULL, created_at datetimeoffset(6) NULL;
GO

-- Rows already there are numbered in the order the claim used so far, and were created when they occurred.
WITH numbered AS (
    SELECT position, created_at, occurred_at, ROW_NUMBER() OVER (ORDER BY occurred_at, id) AS row_no
      FROM outbox_message)
UPDATE numbered SET position = row_no, created_at = occurred_at;
-- RESTART WITH takes a constant only, hence the statement is built (EXEC takes no expression, only a variable).
DECLARE @restart nvarchar(200) = N'ALTER SEQUENCE outbox_message_position RESTART WITH '
    + CAST((SELECT COALESCE(MAX(position), 0) + 1 FROM outbox_message) AS nvarchar(20));
EXEC sp_executesql @restart;
GO

ALTER TABLE outbox_message ALTER COLUMN position bigint NOT NULL;
ALTER TABLE outbox_message ALTER COLUMN created_at datetimeoffset(6) NOT NULL;
ALTER TABLE outbox_message ADD
    CONSTRAINT outbox_message_position_default DEFAULT (NEXT VALUE FOR outbox_message_position) FOR position,
    CONSTRAINT outbox_message_created_at_default DEFAULT SYSDATETIMEOFFSET() FOR created_at;

-- The relay scans unpublished rows by position, and ordered mode an aggregate's unpublished rows by position;
-- nothing orders by occurred_at any more. Rows arrive in position order, so the table is clustered on it.
DROP INDEX outbox_message_unpublished ON outbox_message;
DROP INDEX outbox_message_unpublished_by_aggregate ON outbox_message;
DROP INDEX outbox_message_by_occurred_at ON outbox_message;
ALTER TABLE outbox_message ADD CONSTRAINT outbox_message_position_unique UNIQUE CLUSTERED (position);
CREATE INDEX outbox_message_unpublished ON outbox_message (position)
    INCLUDE (status, next_attempt_at, claimed_until) WHERE published_at IS NULL;
CREATE INDEX outbox_message_unpublished_by_aggregate
    ON outbox_message (aggregate_type, aggregate_id, position) WHERE published_at IS NULL;
