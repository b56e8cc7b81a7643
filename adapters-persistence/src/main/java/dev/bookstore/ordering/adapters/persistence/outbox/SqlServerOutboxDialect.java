package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.time.Duration;

/**
 * SQL Server: {@code WITH (UPDLOCK, READPAST, ROWLOCK)} in a CTE that the {@code UPDATE} goes through,
 * {@code OUTPUT inserted.*}, ids as one JSON array parameter opened with {@code OPENJSON} — so a batch of any
 * size stays one parameter, far from the 2,100-parameter limit of an {@code IN (?, ?, ...)} list.
 * Run the database with {@code READ_COMMITTED_SNAPSHOT ON} so readers never wait for the relay's locks.
 */
final class SqlServerOutboxDialect implements OutboxDialect {

    private static final String IDS = "(SELECT CAST([value] AS uniqueidentifier) FROM OPENJSON(?))";

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
                .formatted(claimable(), ordered ? "\n  AND " + HEAD_OF_AGGREGATE : "");
    }

    @Override
    public Object[] claimParameters(String owner, int batchSize, Duration lease) {
        return new Object[] {batchSize, owner, Math.toIntExact(lease.toMillis())};
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
    public String updateByIds(String assignments, String condition) {
        return "UPDATE outbox_message\n   SET %s\n WHERE id IN %s AND %s".formatted(assignments, IDS, condition);
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
    public Database database() {
        return Database.SQL_SERVER;
    }
}
