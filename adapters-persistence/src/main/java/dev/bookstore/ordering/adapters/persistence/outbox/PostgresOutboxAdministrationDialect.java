package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * PostgreSQL: {@code LIMIT}, {@code now()}, JSON columns read as text; and the CDC relay's "send again", an insert
 * the change log carries.
 */
final class PostgresOutboxAdministrationDialect implements OutboxAdministrationDialect {

    private static final String SELECT = """
            SELECT id, aggregate_type, aggregate_id, type, exchange, routing_key, payload::text, headers::text,
                   occurred_at, attempts, position, status, last_error, created_at, published_at, parked_at
              FROM outbox_message""";
    private static final String NOT_PARKED = "status <> 'PARKED'";

    @Override
    public Statement find(UUID id) {
        return new Statement(SELECT + " WHERE id = ?", new Object[] {id});
    }

    @Override
    public Statement parked(long afterPosition, int limit) {
        return new Statement(SELECT + " WHERE status = 'PARKED' AND position > ? ORDER BY position LIMIT ?",
                new Object[] {afterPosition, limit});
    }

    @Override
    public Statement deleteParked(UUID id) {
        return new Statement("DELETE FROM outbox_message WHERE id = ? AND status = 'PARKED'", new Object[] {id});
    }

    @Override
    public Statement resend(UUID id) {
        return new Statement("UPDATE outbox_message SET %s WHERE id = ? AND status = 'PUBLISHED'"
                .formatted(OutboxAdministrationDialect.resendAssignments("now()")), new Object[] {id});
    }

    @Override
    public Statement countPublished(ReplaySelection selection, int limit) {
        return count("status = 'PUBLISHED'", selection, limit);
    }

    @Override
    public Statement resendPublished(ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>();
        String where = OutboxAdministrationDialect.selectionConditions(selection, parameters,
                Database.POSTGRESQL);
        parameters.add(limit);
        return new Statement("""
                UPDATE outbox_message SET %s
                 WHERE id IN (SELECT id FROM outbox_message WHERE %s ORDER BY position LIMIT ?)
                   AND status = 'PUBLISHED'"""
                .formatted(OutboxAdministrationDialect.resendAssignments("now()"), where), parameters.toArray());
    }

    @Override
    public Statement insertParkedAgain(Collection<UUID> ids) {
        String array = ids.stream().map(UUID::toString).collect(Collectors.joining(",", "{", "}"));
        return new Statement(insertAgain("id = ANY(?::uuid[]) AND status = 'PARKED'"), new Object[] {array});
    }

    @Override
    public Statement insertAgain(UUID id) {
        return new Statement(insertAgain("id = ? AND " + NOT_PARKED), new Object[] {id});
    }

    @Override
    public Statement countNotParked(ReplaySelection selection, int limit) {
        return count(NOT_PARKED, selection, limit);
    }

    private static Statement count(String state, ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>();
        String where = OutboxAdministrationDialect.selectionConditions(state, selection, parameters,
                Database.POSTGRESQL);
        parameters.add(limit + 1);
        return new Statement("SELECT count(*) FROM (SELECT 1 FROM outbox_message WHERE %s LIMIT ?) selected"
                .formatted(where), parameters.toArray());
    }

    @Override
    public Statement insertAgain(ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>();
        String where = OutboxAdministrationDialect.selectionConditions(NOT_PARKED, selection, parameters,
                Database.POSTGRESQL);
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
}
