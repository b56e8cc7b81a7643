package dev.bookstore.ordering.adapters.persistence.outbox;

import java.sql.Connection;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL Server: {@code WITH (UPDLOCK, READPAST, ROWLOCK)} in a CTE that the {@code UPDATE} goes through,
 * {@code OUTPUT inserted.*}, ids as one JSON array parameter opened with {@code OPENJSON} — so a batch of any
 * size stays one parameter, far from the 2,100-parameter limit of an {@code IN (?, ?, ...)} list.
 * Run the database with {@code READ_COMMITTED_SNAPSHOT ON} so readers never wait for the relay's locks.
 */
final class SqlServerOutboxDialect implements OutboxDialect {

    static final String CLAIMABLE = """
            m.published_at IS NULL AND m.status = 'PENDING' AND m.next_attempt_at <= SYSDATETIMEOFFSET()
              AND (m.claimed_until IS NULL OR m.claimed_until < SYSDATETIMEOFFSET())""";

    private static final String IDS = "(SELECT CAST([value] AS uniqueidentifier) FROM OPENJSON(?))";

    @Override
    public String insert() {
        return """
                INSERT INTO outbox_message
                    (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""";
    }

    @Override
    public String claim(boolean ordered) {
        return """
                WITH claimable AS (
                    SELECT TOP (?) m.*
                      FROM outbox_message m WITH (UPDLOCK, READPAST, ROWLOCK)
                     WHERE %s%s
                     ORDER BY m.position)
                UPDATE claimable
                   SET claimed_by = ?, claimed_until = DATEADD(millisecond, ?, SYSDATETIMEOFFSET())
                OUTPUT inserted.id, inserted.aggregate_type, inserted.aggregate_id, inserted.type,
                       inserted.exchange, inserted.routing_key, inserted.payload, inserted.headers,
                       inserted.occurred_at, inserted.attempts, inserted.position;"""
                .formatted(CLAIMABLE, ordered ? "\n  AND " + HEAD_OF_AGGREGATE : "");
    }

    @Override
    public Object[] claimParameters(String owner, int batchSize, Duration lease) {
        return new Object[] {batchSize, owner, Math.toIntExact(lease.toMillis())};
    }

    @Override
    public String recordFailure() {
        return """
                UPDATE outbox_message
                   SET attempts = attempts + 1, status = ?, last_error = ?,
                       next_attempt_at = COALESCE(DATEADD(millisecond, ?, SYSDATETIMEOFFSET()), next_attempt_at),
                       parked_at = CASE WHEN ? = 'PARKED' THEN SYSDATETIMEOFFSET() END,
                       claimed_by = NULL, claimed_until = NULL
                 WHERE id = ? AND claimed_by = ?""";
    }

    /**
     * DATEADD takes an int, about 24.8 days in milliseconds: a longer delay (a backoff-max beyond that) is cut to
     * it rather than failing the whole batch of outcomes.
     */
    @Override
    public Object milliseconds(Duration delay) {
        return (int) Math.min(delay.toMillis(), Integer.MAX_VALUE);
    }

    @Override
    public String markPublished() {
        return """
                UPDATE outbox_message
                   SET status = 'PUBLISHED', published_at = SYSDATETIMEOFFSET(), claimed_by = NULL,
                       claimed_until = NULL
                 WHERE id IN %s AND claimed_by = ?""".formatted(IDS);
    }

    /** None: SQL Server marks and counts in one transaction of two statements. */
    @Override
    public Optional<String> markPublishedAndCount() {
        return Optional.empty();
    }

    @Override
    public String release() {
        return "UPDATE outbox_message SET claimed_by = NULL, claimed_until = NULL WHERE id IN %s AND claimed_by = ?"
                .formatted(IDS);
    }

    /**
     * None: SQL Server's counterpart (delayed durability) is allowed per database by its owner and chosen per
     * transaction at its {@code COMMIT}, which the relay's auto-committed statements do not write; they stay durable.
     */
    @Override
    public Optional<String> relayConnectionSetup() {
        return Optional.empty();
    }

    @Override
    public String unpark() {
        return """
                UPDATE outbox_message
                   SET status = 'PENDING', attempts = 0, next_attempt_at = SYSDATETIMEOFFSET(), parked_at = NULL,
                       created_at = SYSDATETIMEOFFSET()
                 WHERE id IN %s AND status = 'PARKED'""".formatted(IDS);
    }

    @Override
    public String deletePublished() {
        return """
                DELETE FROM outbox_message
                 WHERE id IN (SELECT id FROM outbox_message
                               WHERE published_at < DATEADD(millisecond, ?, DATEADD(second, ?, SYSDATETIMEOFFSET()))
                               ORDER BY position OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY)""";
    }

    /**
     * The age goes back in seconds and then the rest in milliseconds, both negative: DATEADD takes an int, and a
     * retention of weeks in milliseconds would not fit in one.
     */
    @Override
    public Object[] deletePublishedParameters(Duration age, int limit) {
        return new Object[] {-age.toMillisPart(), -Math.toIntExact(age.toSeconds()), limit};
    }

    @Override
    public String stats() {
        return """
                SELECT SUM(CASE WHEN status = 'PENDING' THEN 1 ELSE 0 END),
                       SUM(CASE WHEN status = 'PARKED' THEN 1 ELSE 0 END),
                       (SELECT SUM(published) FROM outbox_published_count),
                       DATEDIFF_BIG(millisecond,
                                    MIN(CASE WHEN status = 'PENDING' THEN created_at END), SYSDATETIMEOFFSET()),
                       DATEDIFF_BIG(millisecond, SYSDATETIMEOFFSET(),
                                    MIN(CASE WHEN status = 'PENDING' AND claimed_until >= SYSDATETIMEOFFSET()
                                             THEN claimed_until END))
                  FROM outbox_message WHERE published_at IS NULL""";
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
