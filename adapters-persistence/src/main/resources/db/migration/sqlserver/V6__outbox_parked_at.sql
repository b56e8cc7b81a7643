-- When a row was parked, for the operator's list of parked messages; see the PostgreSQL migration. Expand only: a
-- nullable column without a default, so an instance of the previous release keeps working beside this one.
ALTER TABLE outbox_message ADD parked_at datetimeoffset(6) NULL;
GO

-- The parked list pages by position over parked rows only.
CREATE INDEX outbox_message_parked ON outbox_message (position) WHERE status = 'PARKED';
