package dev.bookstore.ordering.adapters.persistence.outbox;

/**
 * Published on this instance's event bus after a transaction that appended outbox messages committed, so the
 * local relay can start at once instead of at its next poll.
 */
public record OutboxMessagesCommitted(int count) {
}
