package dev.bookstore.ordering.application.idempotency;

import java.util.Objects;

/**
 * A client's name for one logical request, sent in the {@code Idempotency-Key} header (the IETF httpapi draft):
 * every retry of the request carries the same key, so the service can tell a retry from a new request. 1 to
 * {@value #MAX_LENGTH} visible ASCII characters ({@code !} to {@code ~}, no spaces), compared exactly, case
 * included. A key belongs to the customer who sent it: two customers may use the same key.
 */
public record IdempotencyKey(String value) {

    public static final int MAX_LENGTH = 255;

    /**
     * @throws InvalidIdempotencyKeyException when the value is empty, too long or has a character that is not
     *                                        visible ASCII
     */
    public IdempotencyKey {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            throw new InvalidIdempotencyKeyException("must be 1 to %d characters, got %d"
                    .formatted(MAX_LENGTH, value.length()));
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '!' || c > '~') {
                throw new InvalidIdempotencyKeyException("must be visible ASCII characters only (no spaces), "
                        + "found U+%04X at position %d".formatted((int) c, i));
            }
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
