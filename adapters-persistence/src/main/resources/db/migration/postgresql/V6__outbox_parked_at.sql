-- When a row was parked, for the operator's list of parked messages (GET /admin/outbox/parked). Expand only: a
-- nullable column without a default, so an instance of the previous release keeps working beside this one (its
-- parked rows show no parked time), and adding it rewrites no row.
ALTER TABLE outbox_message ADD COLUMN parked_at timestamptz;
-- The parked list pages by position over parked rows only: few rows, a small index. The claim's lease update
-- changes neither status nor position, so it stays a HOT update.
CREATE INDEX outbox_message_parked ON outbox_message (position) WHERE status = 'PARKED';
