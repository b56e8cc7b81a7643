package dev.bookstore.ordering.adapters.persistence.idempotency;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * The idempotency key statements of one engine: recording a key without ever waiting for a transaction that holds
 * the same key, and deleting expired keys while other instances do the same.
 */
sealed interface IdempotencyDialect permits PostgresIdempotencyDialect, SqlServerIdempotencyDialect,
        MariaDbIdempotencyDialect {

    static IdempotencyDialect of(Database database) {
        return database.pick(PostgresIdempotencyDialect::new, SqlServerIdempotencyDialect::new, MariaDbIdempotencyDialect::new);
    }

    /**
     * Inserts the key unless it is taken; update count 1 when it was recorded. It never waits for a transaction
     * that holds the key: it records nothing (PostgreSQL) or fails at once ({@link #heldByAnotherTransaction}: SQL
     * Server, MariaDB).
     * Parameters from {@link #recordParameters}.
     */
    String record();

    Object[] recordParameters(UUID customer, String key, String requestFingerprint, UUID orderId);

    /** Whether {@link #record()} failed because another, unfinished transaction holds the key. */
    boolean heldByAnotherTransaction(SQLException failure);

    /** Whether {@link #record()} failed because a transaction recorded the key while this one tried. */
    boolean recordedMeanwhile(SQLException failure);

    /** Request fingerprint and order id of a committed key. Parameters: customer, key. */
    default String find() {
        return "SELECT request_hash, order_id FROM idempotency_key WHERE customer_id = ? AND idempotency_key = ?";
    }

    /**
     * Deletes up to a limit of expired keys, skipping rows other transactions hold; where {@link #deleteLocked()} is
     * present, only locks and returns them (customer, key), skipping held rows. Parameters from
     * {@link #deleteExpiredParameters}.
     */
    String deleteExpired();

    /**
     * Where the engine's {@code DELETE} cannot skip rows other transactions hold (MariaDB): deletes one key that
     * {@link #deleteExpired()} locked, run for each of them in the same {@code READ COMMITTED} transaction.
     * Parameters: customer, key. Empty where {@link #deleteExpired()} deletes by itself.
     */
    default Optional<String> deleteLocked() {
        return Optional.empty();
    }

    Object[] deleteExpiredParameters(Duration retention, int limit);
}
