package dev.bookstore.ordering.consumer;

import java.sql.DatabaseMetaData;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * The inbox statements of one engine, chosen from the JDBC metadata of a live connection: recording a delivery
 * without spoiling the caller's transaction, and deleting old rows while other instances do the same.
 */
sealed interface InboxDialect permits PostgresInboxDialect, SqlServerInboxDialect, MariaDbInboxDialect {

    static InboxDialect of(DataSource dataSource) {
        try {
            return of(JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName));
        } catch (MetaDataAccessException e) {
            throw new IllegalStateException("Cannot tell which database the inbox is on", e);
        }
    }

    /** By the product name the JDBC driver reports. */
    static InboxDialect of(String product) {
        return switch (product) {
            case "PostgreSQL" -> new PostgresInboxDialect();
            case "Microsoft SQL Server" -> new SqlServerInboxDialect();
            case "MariaDB" -> new MariaDbInboxDialect();
            default -> throw new IllegalStateException("The inbox runs on PostgreSQL, Microsoft SQL Server and "
                    + "MariaDB, not " + product);
        };
    }

    /**
     * Inserts the delivery; update count 1 when it is the first. A redelivery inserts nothing (PostgreSQL) or fails
     * on the primary key (SQL Server, MariaDB), the caller's transaction usable either way. Parameters: consumer,
     * message id.
     */
    default String recordFirstDelivery() {
        return "INSERT INTO inbox_message (consumer, message_id) VALUES (?, ?)";
    }

    /** The message id as text, which SQL Server's {@code uniqueidentifier} and MariaDB's {@code uuid} take. */
    default Object[] recordFirstDeliveryParameters(String consumer, UUID messageId) {
        return new Object[] {consumer, messageId.toString()};
    }

    /**
     * Deletes up to a limit of the oldest rows received before an age, by the database's clock (the one that
     * stamped {@code received_at}), skipping rows another instance is deleting; where {@link #deleteLocked()} is
     * present, only locks and returns them (consumer, message id), skipping rows others hold.
     */
    String deleteReceivedBefore();

    /**
     * Where the engine's {@code DELETE} cannot skip rows other transactions hold (MariaDB): deletes one row that
     * {@link #deleteReceivedBefore()} locked, run for each of them in the same {@code READ COMMITTED} transaction.
     * Parameters: consumer, message id. Empty where {@link #deleteReceivedBefore()} deletes by itself.
     */
    default Optional<String> deleteLocked() {
        return Optional.empty();
    }

    /** The age in seconds, the limit. */
    default Object[] deleteReceivedBeforeParameters(Duration age, int limit) {
        return new Object[] {age.toSeconds(), limit};
    }
}
