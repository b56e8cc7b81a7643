package dev.bookstore.ordering.adapters.persistence.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.UUID;

/**
 * PostgreSQL: {@code FOR UPDATE SKIP LOCKED} in a sub-select, {@code UPDATE ... RETURNING}, ids as a
 * {@code uuid[]} bound to {@code = ANY(?)}.
 */
final class PostgresOutboxDialect implements OutboxDialect {

    /** Rows the relay may take: not published, not parked, due, and not leased by a live relay. */
    static final String CLAIMABLE = """
            m.published_at IS NULL AND m.status = 'PENDING' AND m.next_attempt_at <= now()
              AND (m.claimed_until IS NULL OR m.claimed_until < now())""";

    @Override
    public String insert() {
        return """
                INSERT INTO outbox_message
                    (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at)
                VALUES (?, ?, ?, ?, ?, ?, CAST(? AS jsonb), CAST(? AS jsonb), ?)""";
    }

    @Override
    public String claim(boolean ordered) {
        return """
                UPDATE outbox_message
                   SET claimed_by = ?, claimed_until = now() + ? * interval '1 millisecond'
                 WHERE id IN (SELECT m.id FROM outbox_message m
                               WHERE %s%s
                               ORDER BY m.position
                               LIMIT ?
                               FOR UPDATE SKIP LOCKED)
                RETURNING id, aggregate_type, aggregate_id, type, exchange, routing_key, payload::text,
                          headers::text, occurred_at, attempts, position"""
                .formatted(CLAIMABLE, ordered ? "\n  AND " + HEAD_OF_AGGREGATE : "");
    }

    @Override
    public Object[] claimParameters(String owner, int batchSize, Duration lease) {
        return new Object[] {owner, lease.toMillis(), batchSize};
    }

    @Override
    public String recordFailure() {
        return """
                UPDATE outbox_message
                   SET attempts = attempts + 1, status = ?, last_error = ?,
                       next_attempt_at = COALESCE(now() + ? * interval '1 millisecond', next_attempt_at),
                       parked_at = CASE WHEN ? = 'PARKED' THEN now() END,
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
                UPDATE outbox_message
                   SET status = 'PUBLISHED', published_at = now(), claimed_by = NULL, claimed_until = NULL
                 WHERE id = ANY(?) AND claimed_by = ?""";
    }

    /**
     * The marking as a data-modifying {@code WITH}: the count's {@code UPDATE} reads the rows the marking returned,
     * and changes its slot only where there were any, as the store's transaction does.
     */
    @Override
    public Optional<String> markPublishedAndCount() {
        return Optional.of("WITH marked AS (" + markPublished() + "\n RETURNING 1),\n"
                + "counted AS (UPDATE outbox_published_count SET published = published + (SELECT count(*) FROM marked)"
                + " WHERE slot = ? AND EXISTS (SELECT 1 FROM marked))\n"
                + "SELECT count(*) FROM marked");
    }

    @Override
    public String release() {
        return "UPDATE outbox_message SET claimed_by = NULL, claimed_until = NULL WHERE id = ANY(?) AND claimed_by = ?";
    }

    @Override
    public Optional<String> relayConnectionSetup() {
        return Optional.of("SET synchronous_commit TO off");
    }

    @Override
    public String unpark() {
        return """
                UPDATE outbox_message
                   SET status = 'PENDING', attempts = 0, next_attempt_at = now(), parked_at = NULL, created_at = now()
                 WHERE id = ANY(?) AND status = 'PARKED'""";
    }

    @Override
    public String deletePublished() {
        return """
                DELETE FROM outbox_message
                 WHERE id IN (SELECT id FROM outbox_message
                               WHERE published_at < now() - ? * interval '1 millisecond'
                               ORDER BY position LIMIT ?)""";
    }

    @Override
    public Object[] deletePublishedParameters(Duration age, int limit) {
        return new Object[] {age.toMillis(), limit};
    }

    @Override
    public String stats() {
        return """
                SELECT count(*) FILTER (WHERE status = 'PENDING'),
                       count(*) FILTER (WHERE status = 'PARKED'),
                       (SELECT sum(published) FROM outbox_published_count),
                       CAST(EXTRACT(EPOCH FROM now() - min(created_at) FILTER (WHERE status = 'PENDING')) * 1000
                            AS bigint),
                       CAST(CEIL(EXTRACT(EPOCH FROM min(claimed_until)
                                FILTER (WHERE status = 'PENDING' AND claimed_until >= now()) - now()) * 1000)
                            AS bigint)
                  FROM outbox_message WHERE published_at IS NULL""";
    }

    @Override
    public Object id(UUID id) {
        return id;
    }

    @Override
    public Object idList(Connection connection, Collection<UUID> ids) throws SQLException {
        return connection.createArrayOf("uuid", ids.toArray());
    }
}
