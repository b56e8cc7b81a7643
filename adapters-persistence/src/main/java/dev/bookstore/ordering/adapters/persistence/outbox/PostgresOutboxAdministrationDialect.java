package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * PostgreSQL: JSON columns read as text, an {@code IN} subquery with {@code LIMIT} for the rows chosen; and the CDC
 * relay's "send again", an insert the change log carries.
 */
final class PostgresOutboxAdministrationDialect implements OutboxAdministrationDialect {

    private static final String NOT_PARKED = "status <> 'PARKED'";

    /** The JSON columns read as text. */
    @Override
    public String columns() {
        return OutboxAdministrationDialect.super.columns().replace("payload, headers", "payload::text, headers::text");
    }

    @Override
    public Statement resendPublished(ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>();
        String where = selectionConditions(selection, parameters);
        parameters.add(limit);
        return new Statement("""
                UPDATE outbox_message SET %s
                 WHERE id IN (SELECT id FROM outbox_message WHERE %s ORDER BY position LIMIT ?)
                   AND status = 'PUBLISHED'"""
                .formatted(resendAssignments(), where), parameters.toArray());
    }

    @Override
    public Statement insertParkedAgain(Collection<UUID> ids) {
        String array = ids.stream().map(UUID::toString).collect(Collectors.joining(",", "{", "}"));
        return new Statement(insertAgain("id = ANY(?::uuid[]) AND status = 'PARKED'"), array);
    }

    @Override
    public Statement insertAgain(UUID id) {
        return new Statement(insertAgain("id = ? AND " + NOT_PARKED), id);
    }

    @Override
    public Statement countNotParked(ReplaySelection selection, int limit) {
        return count(NOT_PARKED, selection, limit);
    }

    @Override
    public Statement insertAgain(ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>();
        String where = selectionConditions(NOT_PARKED, selection, parameters);
        parameters.add(limit);
        return new Statement(insertAgain("""
                id IN (SELECT id FROM outbox_message WHERE %s ORDER BY position LIMIT ?) AND %s"""
                .formatted(where, NOT_PARKED)), parameters.toArray());
    }

    /**
     * Deletes the rows {@code which} selects and inserts them again in one statement, with the same id and content
     * and, from the columns' defaults, pending, no attempts, a new position and created_at now: the publication
     * carries inserts only, so the change log has each once more, in their old order; the delete is never read.
     */
    private static String insertAgain(String which) {
        return """
                WITH gone AS (DELETE FROM outbox_message WHERE %s
                              RETURNING id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                        headers, occurred_at, position)
                INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                            headers, occurred_at)
                SELECT id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at
                  FROM gone ORDER BY position""".formatted(which);
    }

    @Override
    public Database database() {
        return Database.POSTGRESQL;
    }
}
