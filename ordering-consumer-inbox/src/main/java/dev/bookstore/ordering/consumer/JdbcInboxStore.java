package dev.bookstore.ordering.consumer;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link InboxStore} on the {@code inbox_message} table ({@code db/ordering-inbox/{vendor}}). The primary key
 * (consumer, message_id) is the whole mechanism: the first insert wins, a redelivery finds the key taken. It joins
 * the consumer's transaction.
 */
public class JdbcInboxStore implements InboxStore {

    private final JdbcTemplate jdbc;
    private final InboxDialect dialect;
    private final TransactionTemplate purge;

    public JdbcInboxStore(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.dialect = InboxDialect.of(dataSource);
        this.purge = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        purge.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
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
     * auto-committed statement (on MariaDB one short transaction: a locking read and a batch of deletes), skipping
     * rows another instance is deleting; returns how many.
     */
    public int deleteReceivedOlderThan(Duration age, int limit) {
        Object[] parameters = dialect.deleteReceivedBeforeParameters(age, limit);
        Optional<String> deleteLocked = dialect.deleteLocked();
        if (deleteLocked.isEmpty()) {
            return jdbc.update(dialect.deleteReceivedBefore(), parameters);
        }
        Integer deleted = purge.execute(status -> {
            List<Object[]> rows = jdbc.query(dialect.deleteReceivedBefore(),
                    (rs, row) -> new Object[] {rs.getString(1), rs.getString(2)}, parameters);
            if (!rows.isEmpty()) {
                jdbc.batchUpdate(deleteLocked.get(), rows);
            }
            return rows.size();
        });
        return deleted == null ? 0 : deleted;
    }
}
