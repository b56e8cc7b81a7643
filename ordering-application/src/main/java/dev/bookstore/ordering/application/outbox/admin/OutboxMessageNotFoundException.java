package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.domain.shared.OrderingException;
import java.util.UUID;

/** Asked for an outbox message that does not exist (never written, or deleted by retention or an operator). */
public class OutboxMessageNotFoundException extends OrderingException {

    public OutboxMessageNotFoundException(UUID id) {
        super("no outbox message with id " + id);
    }
}
