package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * SQL Server: {@code TOP (?)} (so the limit is the first parameter), {@code SYSDATETIMEOFFSET()}, ids as text, and
 * an update through a CTE of the rows chosen, as the relay's claim does.
 */
final class SqlServerOutboxAdministrationDialect implements OutboxAdministrationDialect {

    private static final String COLUMNS = """
            id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers,
                   occurred_at, attempts, position, status, last_error, created_at, published_at, parked_at""";
    private static final String NOW = "SYSDATETIMEOFFSET()";

    @Override
    public Statement find(UUID id) {
        return new Statement("SELECT " + COLUMNS + " FROM outbox_message WHERE id = ?", new Object[] {id.toString()});
    }

    @Override
    public Statement parked(long afterPosition, int limit) {
        return new Statement("SELECT TOP (?) " + COLUMNS
                + " FROM outbox_message WHERE status = 'PARKED' AND position > ? ORDER BY position",
                new Object[] {limit, afterPosition});
    }

    @Override
    public Statement deleteParked(UUID id) {
        return new Statement("DELETE FROM outbox_message WHERE id = ? AND status = 'PARKED'",
                new Object[] {id.toString()});
    }

    @Override
    public Statement resend(UUID id) {
        return new Statement("UPDATE outbox_message SET %s WHERE id = ? AND status = 'PUBLISHED'"
                .formatted(OutboxAdministrationDialect.resendAssignments(NOW)), new Object[] {id.toString()});
    }

    @Override
    public Statement countPublished(ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>(List.of(limit + 1));
        String where = OutboxAdministrationDialect.selectionConditions(selection, parameters,
                Database.SQL_SERVER);
        return new Statement("SELECT COUNT(*) FROM (SELECT TOP (?) id FROM outbox_message WHERE %s) selected"
                .formatted(where), parameters.toArray());
    }

    @Override
    public Statement resendPublished(ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>(List.of(limit));
        String where = OutboxAdministrationDialect.selectionConditions(selection, parameters,
                Database.SQL_SERVER);
        return new Statement("""
                WITH chosen AS (
                    SELECT TOP (?) * FROM outbox_message WHERE %s ORDER BY position)
                UPDATE chosen SET %s;"""
                .formatted(where, OutboxAdministrationDialect.resendAssignments(NOW)), parameters.toArray());
    }
}
