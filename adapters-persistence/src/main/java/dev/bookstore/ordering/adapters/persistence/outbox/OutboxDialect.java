package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The outbox statements of one database. Where the engines agree, a statement is written once here with the
 * engine's clock ({@link Database#now()}) put in; a dialect holds only what differs: how to skip rows another relay
 * is locking, how to return the claimed rows from the same statement, how to pass a list of ids as one
 * parameter. {@link JdbcOutboxStore} holds the rest.
 */
sealed interface OutboxDialect permits PostgresOutboxDialect, SqlServerOutboxDialect, MariaDbOutboxDialect {

    /**
     * The dialect of {@code database}, as {@link Database#of} tells it from the JDBC metadata of a live connection,
     * never from a hand-set flag.
     */
    static OutboxDialect of(Database database) {
        return database.pick(PostgresOutboxDialect::new, SqlServerOutboxDialect::new, MariaDbOutboxDialect::new);
    }

    /** The engine, whose clock the shared statements use. */
    Database database();

    /**
     * Parameters: id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at.
     * {@code position} and {@code created_at} are not named: the database gives them at insert (column defaults,
     * see {@code V5__outbox_position_and_created_at.sql}), so no writer's clock orders or times a row.
     */
    default String insert() {
        return """
                INSERT INTO outbox_message
                    (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at)
                VALUES (?, ?, ?, ?, ?, ?, %1$s, %1$s, ?)""".formatted(jsonParameter());
    }

    /** A JSON text parameter as the payload and headers columns take it. */
    default String jsonParameter() {
        return "?";
    }

    /** Rows the relay may take ({@code m}): not published, not parked, due, and not leased by a live relay. */
    default String claimable() {
        return """
                m.published_at IS NULL AND m.status = 'PENDING' AND m.next_attempt_at <= %1$s
                  AND (m.claimed_until IS NULL OR m.claimed_until < %1$s)""".formatted(database().now());
    }

    /**
     * One statement that leases and returns due rows, lowest position first; its parameters come from
     * {@link #claimParameters}. Returns the columns {@link JdbcOutboxStore} reads: id, aggregate_type,
     * aggregate_id, type, exchange, routing_key, payload, headers, occurred_at, attempts, position.
     * Where {@link #leaseClaimed()} is present, it only locks and returns the rows, skipping those other relays lock.
     */
    String claim(boolean ordered);

    Object[] claimParameters(String owner, int batchSize, Duration lease);

    /**
     * Where the engine cannot lease and return rows in one statement (MariaDB has no {@code UPDATE ... RETURNING}):
     * the lease of the rows {@link #claim} locked, run after it in the same short {@code READ COMMITTED}
     * transaction. Parameters: the id list, owner, the lease in milliseconds. Empty where the claim leases itself.
     */
    default Optional<String> leaseClaimed() {
        return Optional.empty();
    }

    /**
     * An {@code UPDATE} of the rows an id list names ({@link #idList}, its first parameter): {@code assignments},
     * then {@code condition}, in SQL every engine speaks, with column names unqualified.
     */
    String updateByIds(String assignments, String condition);

    /** Parameters: the id list (see {@link #idList}), owner. */
    default String markPublished() {
        return updateByIds("status = 'PUBLISHED', published_at = %s, claimed_by = NULL, claimed_until = NULL"
                .formatted(database().now()), "claimed_by = ?");
    }

    /**
     * Where the database can: {@link #markPublished} and {@link #COUNT_PUBLISHED} as one statement, atomic by itself
     * and one round trip instead of a transaction's three, returning one row, the number of rows marked.
     * Parameters: the id list, owner, the count's slot. Empty where the two go in one transaction.
     */
    default Optional<String> markPublishedAndCount() {
        return Optional.empty();
    }

    /** Parameters: the id list, owner. */
    default String release() {
        return updateByIds("claimed_by = NULL, claimed_until = NULL", "claimed_by = ?");
    }

    /**
     * What the relay's connections run once, when they are made, before any of the relay's statements; empty where
     * nothing is needed. On PostgreSQL the relay's statements commit without waiting for the WAL flush (see
     * {@link JdbcOutboxStore#relayConnectionSetup()} for why that cannot lose a message). SQL Server's counterpart
     * (delayed durability) is allowed per database by its owner and chosen per transaction at its {@code COMMIT},
     * which the relay's auto-committed statements do not write: they stay durable.
     */
    default Optional<String> relayConnectionSetup() {
        return Optional.empty();
    }

    /**
     * Ordered mode, in SQL every engine speaks: the row aliased {@code m} is the unpublished row of its aggregate
     * that the database stored first (parked rows keep their place in the line). By {@code position}, never by
     * {@code occurred_at}: that is the clock of whichever instance wrote the row.
     */
    String HEAD_OF_AGGREGATE = """
            NOT EXISTS (SELECT 1 FROM outbox_message earlier
                         WHERE earlier.aggregate_type = m.aggregate_type
                           AND earlier.aggregate_id = m.aggregate_id
                           AND earlier.published_at IS NULL
                           AND earlier.position < m.position)""";

    /** How many rows the count of published messages is spread over, so that no single row is hot. */
    int PUBLISHED_COUNT_SLOTS = 64;

    /**
     * Adds to the count of published messages, in the transaction that marked them (on PostgreSQL within the same
     * statement: {@link #markPublishedAndCount()}); SQL every engine speaks.
     * Parameters: how many were marked, the slot.
     */
    String COUNT_PUBLISHED = "UPDATE outbox_published_count SET published = published + ? WHERE slot = ?";

    /**
     * Parameters: status ('PENDING' or 'PARKED'), last_error, the delay before the next attempt in milliseconds
     * ({@link Database#milliseconds}, or a null bigint to keep next_attempt_at), the status again (a parked row gets
     * parked_at, see {@code V6__outbox_parked_at.sql}), id, owner. The next attempt is the delay after the
     * database's now: the clock the claim compares next_attempt_at with. No assignment reads a column another one
     * sets (MariaDB runs them left to right).
     */
    default String recordFailure() {
        return """
                UPDATE outbox_message
                   SET attempts = attempts + 1, status = ?, last_error = ?,
                       next_attempt_at = COALESCE(%s, next_attempt_at),
                       parked_at = CASE WHEN ? = 'PARKED' THEN %s END,
                       claimed_by = NULL, claimed_until = NULL
                 WHERE id = ? AND claimed_by = ?""".formatted(database().nowPlusMilliseconds(), database().now());
    }

    /**
     * Parameters: the id list. The row is due at once with no attempts, as a new row; its created_at becomes the
     * database's now, so the pending age (which runs from created_at) counts from when it entered the line again,
     * not from when it was first stored.
     */
    default String unpark() {
        return updateByIds("""
                status = 'PENDING', attempts = 0, next_attempt_at = %1$s, parked_at = NULL, created_at = %1$s"""
                .formatted(database().now()), "status = 'PARKED'");
    }

    /**
     * Deletes published rows older than an age by the database's clock (the one that stamped published_at), a
     * bounded chunk at a time; its parameters come from {@link #deletePublishedParameters}.
     */
    String deletePublished();

    /** The age in milliseconds, the limit. */
    default Object[] deletePublishedParameters(Duration age, int limit) {
        return new Object[] {age.toMillis(), limit};
    }

    /**
     * No parameters; one row: pending, parked, published, and the age of the oldest pending row in milliseconds
     * (or null) from its created_at to the database's now.
     */
    String stats();

    /**
     * A whole list of ids as a single statement parameter, however long the list: one JSON array of strings, which
     * the engine opens in SQL ({@code OPENJSON}, {@code JSON_TABLE}).
     */
    default Object idList(Connection connection, Collection<UUID> ids) throws SQLException {
        return ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "[", "]"));
    }
}
