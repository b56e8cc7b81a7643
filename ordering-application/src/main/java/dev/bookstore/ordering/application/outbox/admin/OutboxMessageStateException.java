package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.domain.shared.OrderingException;
import java.util.UUID;

/** An operator's change that needs the message in another state, such as requeueing one that is not parked. */
public class OutboxMessageStateException extends OrderingException {

    public OutboxMessageStateException(UUID id, OutboxEntry.Status actual, OutboxEntry.Status expected) {
        super("outbox message " + id + " is " + actual + ", not " + expected + "; nothing was changed");
    }
}
