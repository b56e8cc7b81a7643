package dev.bookstore.ordering.application.outbox;

/**
 * Told after this instance committed a change to the outbox: messages appended by an order's transaction, or
 * requeued, resent or discarded by an operator. The local relay can start at once instead of at its next poll, other
 * instances can be notified, the statistics can be counted again. Runs on the committing thread after the commit,
 * so it must return quickly and must not throw.
 */
@FunctionalInterface
public interface OutboxCommitListener {

    /** @param count how many messages the change wrote */
    void outboxMessagesCommitted(int count);
}
