package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.time.Duration;
import java.util.Optional;

/**
 * MariaDB: no {@code UPDATE ... RETURNING}, so the claim is a {@code SELECT ... FOR UPDATE SKIP LOCKED} and an
 * {@code UPDATE} of the rows it locked, in one short {@code READ COMMITTED} transaction (InnoDB's default,
 * {@code REPEATABLE READ}, would also lock the gaps it scanned). Ids go as one JSON array parameter opened with
 * {@code JSON_TABLE} and joined on the primary key (an {@code IN} subquery would scan the table), so a batch of any
 * size stays one parameter. Times are {@code datetime(6)} in UTC against {@code UTC_TIMESTAMP(6)}; delays go in as
 * milliseconds, times 1,000 microseconds.
 */
final class MariaDbOutboxDialect implements OutboxDialect {

    /** The id list joined to the rows it names; {@code m} is the outbox row. */
    private static final String ROWS_OF_IDS = """
            outbox_message m JOIN JSON_TABLE(?, '$[*]' COLUMNS (id char(36) PATH '$')) ids ON m.id = ids.id""";

    /** The batch size: the lease's owner and length go to {@link #leaseClaimed()}. */
    @Override
    public Object[] claimParameters(String owner, int batchSize, Duration lease) {
        return new Object[] {batchSize};
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
                .formatted(claimable(), ordered ? "\n  AND " + HEAD_OF_AGGREGATE : "");
    }

    @Override
    public Optional<String> leaseClaimed() {
        return Optional.of("UPDATE %s\n   SET m.claimed_by = ?, m.claimed_until = %s"
                .formatted(ROWS_OF_IDS, database().nowPlusMilliseconds()));
    }

    /** The id list's table has one column, {@code id}: every other column name is the outbox row's. */
    @Override
    public String updateByIds(String assignments, String condition) {
        return "UPDATE %s\n   SET %s\n WHERE %s".formatted(ROWS_OF_IDS, assignments, condition);
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
    public Database database() {
        return Database.MARIADB;
    }
}
