package dev.bookstore.ordering.adapters.persistence.inbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.inbox.InboxStore;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * {@link InboxStore} on the {@code inbox_message} table. The primary key (consumer, message_id) is the whole
 * mechanism: the first insert wins, a redelivery finds the key taken. It joins the consumer's transaction.
 */
@Component
public class JdbcInboxStore implements InboxStore {

    private final JdbcTemplate jdbc;
    private final boolean postgres;

    public JdbcInboxStore(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.postgres = Database.of(dataSource) == Database.POSTGRESQL;
    }

    @Override
    public boolean recordFirstDelivery(String consumer, UUID messageId) {
        if (postgres) {
            // ON CONFLICT keeps the surrounding transaction usable, where a failed insert would abort it.
            return jdbc.update("INSERT INTO inbox_message (consumer, message_id) VALUES (?, ?) "
                    + "ON CONFLICT (consumer, message_id) DO NOTHING", consumer, messageId) == 1;
        }
        try {
            return jdbc.update("INSERT INTO inbox_message (consumer, message_id) VALUES (?, ?)",
                    consumer, messageId.toString()) == 1;
        } catch (DuplicateKeyException redelivered) {
            return false;
        }
    }

    /**
     * Forgets deliveries received more than {@code age} ago by the database's clock (the one that stamped
     * received_at), at most {@code limit} at a time, skipping rows another instance is deleting; returns how many.
     */
    public int deleteReceivedOlderThan(Duration age, int limit) {
        return postgres
                ? jdbc.update(InboxSql.POSTGRES_DELETE_OLD, InboxSql.postgresParameters(age, limit))
                : jdbc.update(InboxSql.SQL_SERVER_DELETE_OLD, InboxSql.sqlServerParameters(age, limit));
    }
}
