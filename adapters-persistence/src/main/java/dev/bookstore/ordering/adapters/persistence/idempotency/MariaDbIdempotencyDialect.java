package dev.bookstore.ordering.adapters.persistence.idempotency;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * MariaDB. The insert runs with {@code innodb_lock_wait_timeout} 0 for that statement alone
 * ({@code SET STATEMENT ... FOR}): where an unfinished transaction holds the key it fails at once with error 1205,
 * answered as "in flight"; a key committed before fails with a duplicate key error (1062). InnoDB rolls back only
 * the failed statement (with its default {@code innodb_rollback_on_timeout} off), so the order's transaction goes
 * on. MariaDB's {@code DELETE} takes no {@code SKIP LOCKED}: expired keys are locked by a
 * {@code SELECT ... FOR UPDATE SKIP LOCKED} and deleted one by one in one batch, so instances purging at once
 * take different rows.
 */
final class MariaDbIdempotencyDialect implements IdempotencyDialect {

    /** Lock wait timeout exceeded: what a timeout of 0 raises instead of waiting. */
    static final int LOCK_WAIT_TIMEOUT = 1205;
    static final int DUPLICATE_ENTRY = 1062;

    @Override
    public String record() {
        return """
                SET STATEMENT innodb_lock_wait_timeout = 0 FOR
                INSERT INTO idempotency_key (customer_id, idempotency_key, request_hash, order_id) VALUES (?, ?, ?, ?)""";
    }

    @Override
    public Object[] recordParameters(UUID customer, String key, String requestFingerprint, UUID orderId) {
        return new Object[] {customer.toString(), key, requestFingerprint, orderId.toString()};
    }

    @Override
    public boolean heldByAnotherTransaction(SQLException failure) {
        return failure.getErrorCode() == LOCK_WAIT_TIMEOUT;
    }

    @Override
    public boolean recordedMeanwhile(SQLException failure) {
        return failure.getErrorCode() == DUPLICATE_ENTRY;
    }

    @Override
    public String deleteExpired() {
        return """
                SELECT customer_id, idempotency_key FROM idempotency_key
                 WHERE created_at < UTC_TIMESTAMP(6) - INTERVAL ? SECOND
                 ORDER BY created_at
                 LIMIT ?
                   FOR UPDATE SKIP LOCKED""";
    }

    @Override
    public Optional<String> deleteLocked() {
        return Optional.of("DELETE FROM idempotency_key WHERE customer_id = ? AND idempotency_key = ?");
    }

    @Override
    public Object[] deleteExpiredParameters(Duration retention, int limit) {
        return new Object[] {retention.toSeconds(), limit};
    }
}
