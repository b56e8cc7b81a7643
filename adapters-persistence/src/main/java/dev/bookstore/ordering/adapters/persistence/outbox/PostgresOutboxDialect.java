package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.UUID;

/**
 * PostgreSQL: {@code FOR UPDATE SKIP LOCKED} in a sub-select, {@code UPDATE ... RETURNING}, ids as a
 * {@code uuid[]} bound to {@code = ANY(?)}, JSON as {@code jsonb}.
 */
final class PostgresOutboxDialect implements OutboxDialect {

    @Override
    public String jsonParameter() {
        return "CAST(? AS jsonb)";
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
                .formatted(claimable(), ordered ? "\n  AND " + HEAD_OF_AGGREGATE : "");
    }

    @Override
    public Object[] claimParameters(String owner, int batchSize, Duration lease) {
        return new Object[] {owner, lease.toMillis(), batchSize};
    }

    @Override
    public String updateByIds(String assignments, String condition) {
        return "UPDATE outbox_message\n   SET %s\n WHERE id = ANY(?) AND %s".formatted(assignments, condition);
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
    public Optional<String> relayConnectionSetup() {
        return Optional.of("SET synchronous_commit TO off");
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
    public Object idList(Connection connection, Collection<UUID> ids) throws SQLException {
        return connection.createArrayOf("uuid", ids.toArray());
    }

    @Override
    public Database database() {
        return Database.POSTGRESQL;
    }
}
