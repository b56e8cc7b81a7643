package dev.bookstore.ordering.consumer;

import java.util.Optional;

/**
 * MariaDB: a plain insert, whose duplicate key error (1062) rolls back that statement only and leaves the transaction
 * usable; not {@code INSERT IGNORE}, which would also store a too-long consumer name cut short, or a null one as
 * {@code ''}, where the other engines fail. Its {@code DELETE} takes no {@code SKIP LOCKED}: the oldest rows are
 * locked by a {@code SELECT ... FOR UPDATE SKIP LOCKED} and deleted one by one in one batch, so instances purging at
 * once take different rows. {@code received_at} holds UTC, compared with {@code UTC_TIMESTAMP(6)}.
 */
final class MariaDbInboxDialect implements InboxDialect {

    /** Locks and returns the rows to delete (consumer, message id). Parameters: the age in seconds, the limit. */
    @Override
    public String deleteReceivedBefore() {
        return "SELECT consumer, message_id FROM inbox_message "
                + "WHERE received_at < UTC_TIMESTAMP(6) - INTERVAL ? SECOND "
                + "ORDER BY received_at LIMIT ? FOR UPDATE SKIP LOCKED";
    }

    @Override
    public Optional<String> deleteLocked() {
        return Optional.of("DELETE FROM inbox_message WHERE consumer = ? AND message_id = ?");
    }
}
