package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The operator's outbox statements of one database ({@link JdbcOutboxAdministration}); the relay's are in
 * {@link OutboxDialect}. Every read returns the columns {@link #COLUMNS} names, in that order.
 */
sealed interface OutboxAdministrationDialect
        permits PostgresOutboxAdministrationDialect, SqlServerOutboxAdministrationDialect,
        MariaDbOutboxAdministrationDialect {

    /** The message's columns as the claim returns them, then its state. */
    List<String> COLUMNS = List.of("id", "aggregate_type", "aggregate_id", "type", "exchange", "routing_key",
            "payload", "headers", "occurred_at", "attempts", "position", "status", "last_error", "created_at",
            "published_at", "parked_at");

    static OutboxAdministrationDialect of(Database database) {
        return switch (database) {
            case POSTGRESQL -> new PostgresOutboxAdministrationDialect();
            case SQL_SERVER -> new SqlServerOutboxAdministrationDialect();
            case MARIADB -> new MariaDbOutboxAdministrationDialect();
        };
    }

    /** A statement and its parameters, in order. */
    record Statement(String sql, Object[] parameters) {
    }

    /** One row by id, in any state. */
    Statement find(UUID id);

    /** Parked rows above a position, lowest first, at most {@code limit}. */
    Statement parked(long afterPosition, int limit);

    /** Deletes the row if it is parked. */
    Statement deleteParked(UUID id);

    /** Makes the row pending again if it is published: due now, no attempts, no error, no lease. */
    Statement resend(UUID id);

    /** One row, one column: how many published rows the selection matches, counting at most {@code limit}. */
    Statement countPublished(ReplaySelection selection, int limit);

    /** {@link #resend} for up to {@code limit} published rows of the selection, lowest position first. */
    Statement resendPublished(ReplaySelection selection, int limit);

    /** Parked rows deleted and inserted again, pending, in one statement (the CDC relay's; PostgreSQL only). */
    default Statement insertParkedAgain(Collection<UUID> ids) {
        throw new UnsupportedOperationException("only PostgreSQL has a relay that reads inserts");
    }

    /** The row deleted and inserted again, pending, if it is not parked (the CDC relay's; PostgreSQL only). */
    default Statement insertAgain(UUID id) {
        throw new UnsupportedOperationException("only PostgreSQL has a relay that reads inserts");
    }

    /** {@link #countPublished} over the rows not parked (the CDC relay's; PostgreSQL only). */
    default Statement countNotParked(ReplaySelection selection, int limit) {
        throw new UnsupportedOperationException("only PostgreSQL has a relay that reads inserts");
    }

    /** {@link #insertAgain(UUID)} for up to {@code limit} rows of the selection not parked (PostgreSQL only). */
    default Statement insertAgain(ReplaySelection selection, int limit) {
        throw new UnsupportedOperationException("only PostgreSQL has a relay that reads inserts");
    }

    /**
     * The columns of a published row made pending again, in SQL every engine speaks but for its clock.
     * created_at becomes now: the pending age runs from when the row entered the line again.
     */
    static String resendAssignments(String now) {
        return "status = 'PENDING', published_at = NULL, attempts = 0, last_error = NULL, next_attempt_at = %s, "
                .formatted(now)
                + "created_at = %s, parked_at = NULL, claimed_by = NULL, claimed_until = NULL".formatted(now);
    }

    /**
     * The conditions of a selection, in SQL every engine speaks, appended to {@code parameters} (times as
     * {@code database} binds them) in the order of their placeholders. Only the fields given are conditions, so each shape of selection is its own statement
     * with its own plan.
     */
    static String selectionConditions(ReplaySelection selection, List<Object> parameters, Database database) {
        return selectionConditions("status = 'PUBLISHED'", selection, parameters, database);
    }

    /** {@link #selectionConditions(ReplaySelection, List, Database)} over the rows in {@code state}. */
    static String selectionConditions(String state, ReplaySelection selection, List<Object> parameters,
                                      Database database) {
        StringBuilder where = new StringBuilder(state);
        if (selection.aggregateId() != null) {
            where.append(" AND aggregate_id = ?");
            parameters.add(selection.aggregateId());
        }
        if (selection.aggregateType() != null) {
            where.append(" AND aggregate_type = ?");
            parameters.add(selection.aggregateType());
        }
        if (selection.from() != null) {
            where.append(" AND occurred_at >= ?");
            parameters.add(database.timestamp(selection.from()));
        }
        if (selection.to() != null) {
            where.append(" AND occurred_at < ?");
            parameters.add(database.timestamp(selection.to()));
        }
        return where.toString();
    }
}
