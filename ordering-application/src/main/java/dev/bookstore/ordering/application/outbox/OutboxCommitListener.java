package dev.bookstore.ordering.application.outbox;

/**
 * Told after a transaction that appended outbox messages committed, on the committing thread: the local relay
 * can start at once instead of at its next poll, and other instances can be notified. It must return quickly
 * and must not throw; it runs on the request's thread after the commit.
 */
@FunctionalInterface
public interface OutboxCommitListener {

    void outboxMessagesCommitted(int count);
}
