package dev.bookstore.ordering.adapters.persistence.idempotency;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

/**
 * PostgreSQL. An {@code INSERT} of a key that an unfinished transaction inserted waits for it, {@code ON CONFLICT}
 * included; so the insert first takes the key's transaction-level advisory lock with
 * {@code pg_try_advisory_xact_lock}, which never waits. Without the lock it inserts nothing: the key is in flight.
 * With it, it meets at most a committed row, and {@code ON CONFLICT DO NOTHING} returns at once. Expired keys are
 * deleted with {@code FOR UPDATE SKIP LOCKED}, so instances purging at once take different rows.
 */
final class PostgresIdempotencyDialect implements IdempotencyDialect {

    @Override
    public String record() {
        return """
                INSERT INTO idempotency_key (customer_id, idempotency_key, request_hash, order_id)
                SELECT CAST(? AS uuid), ?, ?, CAST(? AS uuid)
                 WHERE pg_try_advisory_xact_lock(?)
                ON CONFLICT (customer_id, idempotency_key) DO NOTHING""";
    }

    @Override
    public Object[] recordParameters(UUID customer, String key, String requestFingerprint, UUID orderId) {
        return new Object[] {customer, key, requestFingerprint, orderId, lockId(customer, key)};
    }

    /**
     * The advisory lock of a key: 64 bits of a SHA-256 of customer and key, the same in every instance. Two keys
     * that share a lock id (a chance of 2^-64 per pair of requests in flight together) cost a retry at worst.
     */
    static long lockId(UUID customer, String key) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            // A UUID's text has a fixed length, so customer and key cannot run into each other.
            byte[] digest = sha256.digest((customer + key).getBytes(StandardCharsets.US_ASCII));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    @Override
    public boolean heldByAnotherTransaction(SQLException failure) {
        return false; // the insert never fails for that: it records nothing
    }

    @Override
    public boolean recordedMeanwhile(SQLException failure) {
        return false; // ON CONFLICT DO NOTHING
    }

    @Override
    public String deleteExpired() {
        return """
                DELETE FROM idempotency_key
                 WHERE (customer_id, idempotency_key) IN (
                       SELECT customer_id, idempotency_key FROM idempotency_key
                        WHERE created_at < now() - ? * interval '1 second'
                        ORDER BY created_at
                        LIMIT ?
                        FOR UPDATE SKIP LOCKED)""";
    }

    @Override
    public Object[] deleteExpiredParameters(Duration retention, int limit) {
        return new Object[] {retention.toSeconds(), limit};
    }
}
