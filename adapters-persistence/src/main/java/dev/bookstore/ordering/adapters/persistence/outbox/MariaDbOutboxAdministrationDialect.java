package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * MariaDB: {@code LIMIT} last, {@code UTC_TIMESTAMP(6)}, ids as text, and a single-table {@code UPDATE} with
 * {@code ORDER BY} and {@code LIMIT} for the rows chosen (MariaDB takes no {@code LIMIT} in an {@code IN} subquery).
 */
final class MariaDbOutboxAdministrationDialect implements OutboxAdministrationDialect {

    private static final String SELECT = """
            SELECT id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers,
                   occurred_at, attempts, position, status, last_error, created_at, published_at, parked_at
              FROM outbox_message""";

    @Override
    public Statement find(UUID id) {
        return new Statement(SELECT + " WHERE id = ?", new Object[] {id.toString()});
    }

    @Override
    public Statement parked(long afterPosition, int limit) {
        return new Statement(SELECT + " WHERE status = 'PARKED' AND position > ? ORDER BY position LIMIT ?",
                new Object[] {afterPosition, limit});
    }

    @Override
    public Statement deleteParked(UUID id) {
        return new Statement("DELETE FROM outbox_message WHERE id = ? AND status = 'PARKED'",
                new Object[] {id.toString()});
    }

    @Override
    public Statement resend(UUID id) {
        return new Statement("UPDATE outbox_message SET %s WHERE id = ? AND status = 'PUBLISHED'"
                .formatted(OutboxAdministrationDialect.resendAssignments(MariaDbOutboxDialect.NOW)),
                new Object[] {id.toString()});
    }

    @Override
    public Statement countPublished(ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>();
        String where = OutboxAdministrationDialect.selectionConditions(selection, parameters, Database.MARIADB);
        parameters.add(limit + 1);
        return new Statement("SELECT COUNT(*) FROM (SELECT 1 FROM outbox_message WHERE %s LIMIT ?) selected"
                .formatted(where), parameters.toArray());
    }

    @Override
    public Statement resendPublished(ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>();
        String where = OutboxAdministrationDialect.selectionConditions(selection, parameters, Database.MARIADB);
        parameters.add(limit);
        return new Statement("UPDATE outbox_message SET %s WHERE %s ORDER BY position LIMIT ?"
                .formatted(OutboxAdministrationDialect.resendAssignments(MariaDbOutboxDialect.NOW), where),
                parameters.toArray());
    }
}
