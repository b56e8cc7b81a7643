package dev.bookstore.ordering.bootstrap.web;

import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.application.idempotency.InvalidIdempotencyKeyException;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpHeaders;

/**
 * The optional {@code Idempotency-Key} request header (IETF httpapi draft "The Idempotency-Key HTTP Header
 * Field"). Its value is the key as sent, compared exactly: a client that follows the draft and quotes the key
 * ({@code "8e03978e-..."}) sends the quotes every time, so they are part of its key.
 */
final class IdempotencyKeyHeader {

    static final String NAME = "Idempotency-Key";

    private IdempotencyKeyHeader() {
    }

    /**
     * The key of a request, if it has one.
     *
     * @throws InvalidIdempotencyKeyException when the header is sent more than once or breaks the key's format
     */
    static Optional<IdempotencyKey> of(HttpHeaders headers) {
        // The raw field lines: Spring's comma-splitting accessors would cut a key that contains a comma.
        List<String> values = headers.get(NAME);
        if (values == null || values.isEmpty()) {
            return Optional.empty();
        }
        if (values.size() > 1) {
            throw new InvalidIdempotencyKeyException("must be sent once, got %d".formatted(values.size()));
        }
        return Optional.of(new IdempotencyKey(values.get(0)));
    }
}
