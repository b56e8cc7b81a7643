package dev.bookstore.ordering.adapters.persistence.outbox;

import java.sql.Connection;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.UUID;

/**
 * MariaDB: no {@code UPDATE ... RETURNING}, so the claim is a {@code SELECT ... FOR UPDATE SKIP LOCKED} and an
 * {@code UPDATE} of the rows it locked, in one short {@code READ COMMITTED} transaction (InnoDB's default,
 * {@code REPEATABLE READ}, would also lock the gaps it scanned). Ids go as one JSON array parameter opened with
 * {@code JSON_TABLE} and joined on the primary key, so a batch of any size stays one parameter. Times are
 * {@code datetime(6)} in UTC against {@code UTC_TIMESTAMP(6)}; delays go in as milliseconds, times 1,000 microseconds.
 */
final class MariaDbOutboxDialect implements OutboxDialect {

    static final String NOW = "UTC_TIMESTAMP(6)";

    static final String CLAIMABLE = """
            m.published_at IS NULL AND m.status = 'PENDING' AND m.next_attempt_at <= UTC_TIMESTAMP(6)
              AND (m.claimed_until IS NULL OR m.claimed_until < UTC_TIMESTAMP(6))""";

    /** The id list joined to the rows it names; {@code m} is the outbox row. */
    private static final String ROWS_OF_IDS = """
            outbox_message m JOIN JSON_TABLE(?, '$[*]' COLUMNS (id char(36) PATH '$')) ids ON m.id = ids.id""";

    @Override
    public String insert() {
        return """
                INSERT INTO outbox_message
                    (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""";
    }

    /** Locks the due rows; {@link #leaseClaimed()} leases them. The {@code NOT EXISTS} reads without locking. */
    @Override
    public String claim(boolean ordered) {
        return """
                SELECT m.id, m.aggregate_type, m.aggregate_id, m.type, m.exchange, m.routing_key, m.payload,
                       m.headers, m.occurred_at, m.attempts, m.position
                  FROM outbox_message m
                 WHERE %s%s
                 ORDER BY m.position
                 LIMIT ?
                   FOR UPDATE SKIP LOCKED"""
                .formatted(CLAIMABLE, ordered ? "\n  AND " + HEAD_OF_AGGREGATE : "");
    }

    @Override
    public Object[] claimParameters(String owner, int batchSize, Duration lease) {
        return new Object[] {batchSize};
    }

    @Override
    public Optional<String> leaseClaimed() {
        return Optional.of("""
                UPDATE %s
                   SET m.claimed_by = ?, m.claimed_until = UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND"""
                .formatted(ROWS_OF_IDS));
    }

    /** Assignments run left to right in MariaDB; none here reads a column another one sets. */
    @Override
    public String recordFailure() {
        return """
                UPDATE outbox_message
                   SET attempts = attempts + 1, status = ?, last_error = ?,
                       next_attempt_at = COALESCE(UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND, next_attempt_at),
                       parked_at = CASE WHEN ? = 'PARKED' THEN UTC_TIMESTAMP(6) END,
                       claimed_by = NULL, claimed_until = NULL
                 WHERE id = ? AND claimed_by = ?""";
    }

    @Override
    public Object milliseconds(Duration delay) {
        return delay.toMillis();
    }

    @Override
    public String markPublished() {
        return """
                UPDATE %s
                   SET m.status = 'PUBLISHED', m.published_at = UTC_TIMESTAMP(6), m.claimed_by = NULL,
                       m.claimed_until = NULL
                 WHERE m.claimed_by = ?""".formatted(ROWS_OF_IDS);
    }

    /** None: MariaDB marks and counts in one transaction of two statements. */
    @Override
    public Optional<String> markPublishedAndCount() {
        return Optional.empty();
    }

    @Override
    public String release() {
        return "UPDATE %s SET m.claimed_by = NULL, m.claimed_until = NULL WHERE m.claimed_by = ?"
                .formatted(ROWS_OF_IDS);
    }

    /** None: the claim's transaction asks for {@code READ COMMITTED} itself. */
    @Override
    public Optional<String> relayConnectionSetup() {
        return Optional.empty();
    }

    @Override
    public String unpark() {
        return """
                UPDATE %s
                   SET m.status = 'PENDING', m.attempts = 0, m.next_attempt_at = UTC_TIMESTAMP(6), m.parked_at = NULL,
                       m.created_at = UTC_TIMESTAMP(6)
                 WHERE m.status = 'PARKED'""".formatted(ROWS_OF_IDS);
    }

    /** A single-table {@code DELETE} takes {@code ORDER BY} and {@code LIMIT}; status leads the index it scans. */
    @Override
    public String deletePublished() {
        return """
                DELETE FROM outbox_message
                 WHERE status = 'PUBLISHED' AND published_at < UTC_TIMESTAMP(6) - INTERVAL ? * 1000 MICROSECOND
                 ORDER BY position
                 LIMIT ?""";
    }

    @Override
    public Object[] deletePublishedParameters(Duration age, int limit) {
        return new Object[] {age.toMillis(), limit};
    }

    /** Unpublished rows are the pending and parked ones: the scan stays on the status index. */
    @Override
    public String stats() {
        return """
                SELECT SUM(status = 'PENDING'),
                       SUM(status = 'PARKED'),
                       (SELECT SUM(published) FROM outbox_published_count),
                       TIMESTAMPDIFF(MICROSECOND, MIN(CASE WHEN status = 'PENDING' THEN created_at END),
                                     UTC_TIMESTAMP(6)) DIV 1000,
                       CEIL(TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6),
                                          MIN(CASE WHEN status = 'PENDING' AND claimed_until >= UTC_TIMESTAMP(6)
                                                   THEN claimed_until END)) / 1000)
                  FROM outbox_message WHERE status IN ('PENDING', 'PARKED')""";
    }

    @Override
    public Object id(UUID id) {
        return id.toString();
    }

    @Override
    public Object idList(Connection connection, Collection<UUID> ids) {
        return OutboxDialect.jsonArray(ids);
    }
}
