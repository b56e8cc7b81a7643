package dev.bookstore.ordering.consumer;

import java.util.UUID;

/** PostgreSQL: {@code ON CONFLICT DO NOTHING} (a failed insert would abort the caller's transaction). */
final class PostgresInboxDialect implements InboxDialect {

    @Override
    public String recordFirstDelivery() {
        return "INSERT INTO inbox_message (consumer, message_id) VALUES (?, ?) "
                + "ON CONFLICT (consumer, message_id) DO NOTHING";
    }

    @Override
    public Object[] recordFirstDeliveryParameters(String consumer, UUID messageId) {
        return new Object[] {consumer, messageId};
    }

    /** Parameters: the age in seconds, the limit. */
    @Override
    public String deleteReceivedBefore() {
        return "DELETE FROM inbox_message WHERE (consumer, message_id) IN (SELECT consumer, message_id "
                + "FROM inbox_message WHERE received_at < now() - ? * interval '1 second' "
                + "ORDER BY received_at LIMIT ? FOR UPDATE SKIP LOCKED)";
    }
}
