package dev.bookstore.ordering.application.outbox;

import java.util.List;

/**
 * Stores outbox messages in the caller's transaction, beside the change that produced them: if the transaction
 * rolls back, no message was stored. The messages are complete; the writer adds nothing and decides nothing.
 */
public interface OutboxWriter {

    /** @param messages at least one, in the order they are to be published */
    void append(List<OutboxMessage> messages);
}
