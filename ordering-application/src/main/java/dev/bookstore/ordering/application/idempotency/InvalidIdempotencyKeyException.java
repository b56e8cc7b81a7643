package dev.bookstore.ordering.application.idempotency;

import dev.bookstore.ordering.domain.shared.OrderingException;

/** An {@code Idempotency-Key} that breaks the format of {@link IdempotencyKey}. */
public class InvalidIdempotencyKeyException extends OrderingException {

    private final String reason;

    public InvalidIdempotencyKeyException(String reason) {
        super("Idempotency-Key " + reason);
        this.reason = reason;
    }

    /** What is wrong with the key, without naming it: "must be 1 to 255 characters, got 0". */
    public String reason() {
        return reason;
    }
}
