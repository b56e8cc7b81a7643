package dev.bookstore.ordering.adapters.persistence.idempotency;

import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

/**
 * SQL Server. The insert runs with the table hint {@code NOWAIT}: where an unfinished transaction holds the key it
 * fails at once with error 1222, answered as "in flight"; a key committed between the {@code NOT EXISTS} and the
 * insert fails with a duplicate key error (2627, 2601). Neither dooms the transaction. Expired keys are deleted
 * through a CTE of the oldest {@code TOP (n)} read with {@code READPAST}, so instances purging at once skip each
 * other's rows. Needs {@code READ_COMMITTED_SNAPSHOT ON} (as the outbox does) so the check reads without locks.
 */
final class SqlServerIdempotencyDialect implements IdempotencyDialect {

    /** Lock request time out period exceeded: what {@code NOWAIT} raises instead of waiting. */
    static final int LOCK_REQUEST_TIMEOUT = 1222;
    static final int UNIQUE_CONSTRAINT_VIOLATION = 2627;
    static final int UNIQUE_INDEX_VIOLATION = 2601;

    @Override
    public String record() {
        return """
                INSERT INTO idempotency_key WITH (NOWAIT) (customer_id, idempotency_key, request_hash, order_id)
                SELECT ?, ?, ?, ?
                 WHERE NOT EXISTS (SELECT 1 FROM idempotency_key WITH (NOWAIT)
                                    WHERE customer_id = ? AND idempotency_key = ?)""";
    }

    @Override
    public Object[] recordParameters(UUID customer, String key, String requestFingerprint, UUID orderId) {
        return new Object[] {customer.toString(), key, requestFingerprint, orderId.toString(), customer.toString(),
                key};
    }

    @Override
    public boolean heldByAnotherTransaction(SQLException failure) {
        return failure.getErrorCode() == LOCK_REQUEST_TIMEOUT;
    }

    @Override
    public boolean recordedMeanwhile(SQLException failure) {
        return failure.getErrorCode() == UNIQUE_CONSTRAINT_VIOLATION
                || failure.getErrorCode() == UNIQUE_INDEX_VIOLATION;
    }

    @Override
    public String deleteExpired() {
        return """
                WITH expired AS (
                    SELECT TOP (?) * FROM idempotency_key WITH (ROWLOCK, READPAST)
                     WHERE created_at < DATEADD(second, ?, SYSDATETIMEOFFSET())
                     ORDER BY created_at)
                DELETE FROM expired""";
    }

    /** The seconds go in negative: DATEADD takes an {@code int}, which holds 68 years of seconds. */
    @Override
    public Object[] deleteExpiredParameters(Duration retention, int limit) {
        return new Object[] {limit, Math.negateExact(Math.toIntExact(retention.toSeconds()))};
    }
}
