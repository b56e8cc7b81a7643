package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.domain.shared.OrderingException;

/** A replay that is unbounded, too wide or reaches past the retention; nothing was queued. */
public class InvalidReplayException extends OrderingException {

    private final String field;
    private final String reason;

    public InvalidReplayException(String field, String reason) {
        super(field + " " + reason);
        this.field = field;
        this.reason = reason;
    }

    public String field() {
        return field;
    }

    public String reason() {
        return reason;
    }
}
