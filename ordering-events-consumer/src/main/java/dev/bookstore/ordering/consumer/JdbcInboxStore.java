package dev.bookstore.ordering.consumer;

import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link InboxStore} on the {@code inbox_message} table ({@code db/ordering-inbox/{vendor}}). The primary key
 * (consumer, message_id) is the whole mechanism: the first insert wins, a redelivery finds the key taken. It joins
 * the consumer's transaction.
 */
public class JdbcInboxStore implements InboxStore {

    private final JdbcTemplate jdbc;
    private final InboxDialect dialect;

    public JdbcInboxStore(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.dialect = InboxDialect.of(dataSource);
    }

    @Override
    public boolean recordFirstDelivery(String consumer, UUID messageId) {
        try {
            return jdbc.update(dialect.recordFirstDelivery(),
                    dialect.recordFirstDeliveryParameters(consumer, messageId)) == 1;
        } catch (DuplicateKeyException redelivered) {
            return false;
        }
    }

    /**
     * Forgets deliveries received more than {@code age} ago by the database's clock, at most {@code limit} in one
     * auto-committed statement, skipping rows another instance is deleting; returns how many.
     */
    public int deleteReceivedOlderThan(Duration age, int limit) {
        return jdbc.update(dialect.deleteReceivedBefore(), dialect.deleteReceivedBeforeParameters(age, limit));
    }
}
