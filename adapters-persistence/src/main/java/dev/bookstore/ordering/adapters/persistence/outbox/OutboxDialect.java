package dev.bookstore.ordering.adapters.persistence.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.UUID;

/**
 * The outbox statements of one database. Everything vendor-specific lives here: how to skip rows another relay
 * is locking, how to return the claimed rows from the same statement, how to pass a list of ids as one
 * parameter. {@link JdbcOutboxStore} holds the rest.
 */
sealed interface OutboxDialect permits PostgresOutboxDialect, SqlServerOutboxDialect {

    /** Picks the dialect from the JDBC metadata of a live connection, never from a hand-set flag. */
    static OutboxDialect of(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        if (product.startsWith("PostgreSQL")) {
            return new PostgresOutboxDialect();
        }
        if (product.startsWith("Microsoft SQL Server")) {
            return new SqlServerOutboxDialect();
        }
        throw new IllegalStateException("The outbox supports PostgreSQL and Microsoft SQL Server, not " + product);
    }

    String name();

    /** Parameters: id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at. */
    String insert();

    /** One statement that leases and returns due rows; its parameters come from {@link #claimParameters}. */
    String claim(boolean ordered);

    Object[] claimParameters(String owner, int batchSize, Duration lease);

    /** Parameters: the id list (see {@link #idList}), owner. */
    String markPublished();

    /** Parameters: the id list, owner. */
    String release();

    /**
     * Ordered mode, in SQL both databases speak: the row aliased {@code m} is the oldest unpublished row of its
     * aggregate (parked rows keep their place in the line).
     */
    String HEAD_OF_AGGREGATE = """
            NOT EXISTS (SELECT 1 FROM outbox_message earlier
                         WHERE earlier.aggregate_type = m.aggregate_type
                           AND earlier.aggregate_id = m.aggregate_id
                           AND earlier.published_at IS NULL
                           AND (earlier.occurred_at < m.occurred_at
                                OR (earlier.occurred_at = m.occurred_at AND earlier.id < m.id)))""";

    /** How many rows the count of published messages is spread over, so that no single row is hot. */
    int PUBLISHED_COUNT_SLOTS = 64;

    /**
     * Adds to the count of published messages, in the transaction that marked them; SQL both databases speak.
     * Parameters: how many were marked, the slot.
     */
    String COUNT_PUBLISHED = "UPDATE outbox_published_count SET published = published + ? WHERE slot = ?";

    /** Parameters: status ('PENDING' or 'PARKED'), last_error, next_attempt_at (or null to keep), id, owner. */
    default String recordFailure() {
        return """
                UPDATE outbox_message
                   SET attempts = attempts + 1, status = ?, last_error = ?,
                       next_attempt_at = COALESCE(?, next_attempt_at), claimed_by = NULL, claimed_until = NULL
                 WHERE id = ? AND claimed_by = ?""";
    }

    /** Parameters: the id list. */
    String unpark();

    /** Parameters: cutoff, limit. */
    String deletePublished();

    /** No parameters; one row: pending, parked, published, oldest pending age in milliseconds (or null). */
    String stats();

    /** One id as a statement parameter. */
    Object id(UUID id);

    /** A whole list of ids as a single statement parameter, however long the list. */
    Object idList(Connection connection, Collection<UUID> ids) throws SQLException;
}
