package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL Server: {@code TOP (?)} (so the limit is the first parameter), and an update through a CTE of the rows chosen,
 * as the relay's claim does.
 */
final class SqlServerOutboxAdministrationDialect implements OutboxAdministrationDialect {

    @Override
    public Statement parked(long afterPosition, int limit) {
        return new Statement("SELECT TOP (?) %s FROM outbox_message WHERE status = 'PARKED' AND position > ? "
                .formatted(columns()) + "ORDER BY position", limit, afterPosition);
    }

    @Override
    public Statement count(String state, ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>(List.of(limit + 1));
        String where = selectionConditions(state, selection, parameters);
        return new Statement("SELECT COUNT(*) FROM (SELECT TOP (?) id FROM outbox_message WHERE %s) selected"
                .formatted(where), parameters.toArray());
    }

    @Override
    public Statement resendPublished(ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>(List.of(limit));
        String where = selectionConditions(selection, parameters);
        return new Statement("""
                WITH chosen AS (
                    SELECT TOP (?) * FROM outbox_message WHERE %s ORDER BY position)
                UPDATE chosen SET %s;"""
                .formatted(where, resendAssignments()), parameters.toArray());
    }

    @Override
    public Database database() {
        return Database.SQL_SERVER;
    }
}
