package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The operator's outbox statements of one database ({@link JdbcOutboxAdministration}); the relay's are in
 * {@link OutboxDialect}. Where the engines agree, a statement is written once here; a dialect holds what differs
 * (how a read is limited, how JSON is read). Every read returns the columns {@link #COLUMNS} names, in that order.
 */
sealed interface OutboxAdministrationDialect
        permits PostgresOutboxAdministrationDialect, SqlServerOutboxAdministrationDialect,
        MariaDbOutboxAdministrationDialect {

    /** The message's columns as the claim returns them, then its state. */
    List<String> COLUMNS = List.of("id", "aggregate_type", "aggregate_id", "type", "exchange", "routing_key",
            "payload", "headers", "occurred_at", "attempts", "position", "status", "last_error", "created_at",
            "published_at", "parked_at");

    static OutboxAdministrationDialect of(Database database) {
        return database.pick(PostgresOutboxAdministrationDialect::new, SqlServerOutboxAdministrationDialect::new, MariaDbOutboxAdministrationDialect::new);
    }

    /** A statement and its parameters, in order. */
    record Statement(String sql, Object... parameters) {
    }

    /** The engine, whose clock and bindings the shared statements use. */
    Database database();

    /** {@link #COLUMNS} as a select list. */
    default String columns() {
        return String.join(", ", COLUMNS);
    }

    /** One row by id, in any state. */
    default Statement find(UUID id) {
        return new Statement("SELECT %s FROM outbox_message WHERE id = ?".formatted(columns()), database().id(id));
    }

    /** Parked rows above a position, lowest first, at most {@code limit}. */
    default Statement parked(long afterPosition, int limit) {
        return new Statement("SELECT %s FROM outbox_message WHERE status = 'PARKED' AND position > ? "
                .formatted(columns()) + "ORDER BY position LIMIT ?", afterPosition, limit);
    }

    /** Deletes the row if it is parked. */
    default Statement deleteParked(UUID id) {
        return new Statement("DELETE FROM outbox_message WHERE id = ? AND status = 'PARKED'", database().id(id));
    }

    /** Makes the row pending again if it is published: due now, no attempts, no error, no lease. */
    default Statement resend(UUID id) {
        return new Statement("UPDATE outbox_message SET %s WHERE id = ? AND status = 'PUBLISHED'"
                .formatted(resendAssignments()), database().id(id));
    }

    /** One row, one column: how many published rows the selection matches, counting at most {@code limit}. */
    default Statement countPublished(ReplaySelection selection, int limit) {
        return count("status = 'PUBLISHED'", selection, limit);
    }

    /** {@link #countPublished} over the rows in {@code state}. */
    default Statement count(String state, ReplaySelection selection, int limit) {
        List<Object> parameters = new ArrayList<>();
        String where = selectionConditions(state, selection, parameters);
        parameters.add(limit + 1);
        return new Statement("SELECT count(*) FROM (SELECT 1 FROM outbox_message WHERE %s LIMIT ?) selected"
                .formatted(where), parameters.toArray());
    }

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
     * The columns of a published row made pending again. created_at becomes now: the pending age runs from when the
     * row entered the line again.
     */
    default String resendAssignments() {
        return "status = 'PENDING', published_at = NULL, attempts = 0, last_error = NULL, next_attempt_at = %1$s, "
                .formatted(database().now())
                + "created_at = %s, parked_at = NULL, claimed_by = NULL, claimed_until = NULL"
                .formatted(database().now());
    }

    /** {@link #selectionConditions(String, ReplaySelection, List)} over the published rows. */
    default String selectionConditions(ReplaySelection selection, List<Object> parameters) {
        return selectionConditions("status = 'PUBLISHED'", selection, parameters);
    }

    /**
     * The conditions of a selection over the rows in {@code state}, appended to {@code parameters} (times as the
     * engine binds them) in the order of their placeholders. Only the fields given are conditions, so each shape of
     * selection is its own statement with its own plan.
     */
    default String selectionConditions(String state, ReplaySelection selection, List<Object> parameters) {
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
            parameters.add(database().timestamp(selection.from()));
        }
        if (selection.to() != null) {
            where.append(" AND occurred_at < ?");
            parameters.add(database().timestamp(selection.to()));
        }
        return where.toString();
    }
}
