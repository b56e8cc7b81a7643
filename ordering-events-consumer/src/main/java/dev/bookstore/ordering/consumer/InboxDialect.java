package dev.bookstore.ordering.consumer;

import java.sql.DatabaseMetaData;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * The inbox statements of one engine, chosen from the JDBC metadata of a live connection: recording a delivery
 * without spoiling the caller's transaction, and deleting old rows while other instances do the same.
 */
sealed interface InboxDialect permits PostgresInboxDialect, SqlServerInboxDialect {

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
            default -> throw new IllegalStateException("The inbox runs on PostgreSQL and Microsoft SQL Server, not "
                    + product);
        };
    }

    /** Inserts the delivery; update count 1 when it is the first. Parameters: consumer, message id. */
    String recordFirstDelivery();

    Object[] recordFirstDeliveryParameters(String consumer, UUID messageId);

    /**
     * Deletes up to a limit of the oldest rows received before an age, by the database's clock (the one that
     * stamped {@code received_at}), skipping rows another instance is deleting.
     */
    String deleteReceivedBefore();

    Object[] deleteReceivedBeforeParameters(Duration age, int limit);
}
