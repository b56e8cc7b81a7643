package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.util.ArrayList;
import java.util.List;

/**
 * MariaDB: a single-table {@code UPDATE} with {@code ORDER BY} and {@code LIMIT} for the rows chosen (MariaDB takes
 * no {@code LIMIT} in an {@code IN} subquery).
 */
final class MariaDbOutboxAdministrationDialect implements OutboxAdministrationDialect {

    @Override
    public Statement resendPublished(ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>();
        String where = selectionConditions(selection, parameters);
        parameters.add(limit);
        return new Statement("UPDATE outbox_message SET %s WHERE %s ORDER BY position LIMIT ?"
                .formatted(resendAssignments(), where), parameters.toArray());
    }

    @Override
    public Database database() {
        return Database.MARIADB;
    }
}
