package dev.bookstore.ordering.adapters.web;

import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.application.idempotency.InvalidIdempotencyKeyException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Optional;

/**
 * The optional {@code Idempotency-Key} request header (IETF httpapi draft "The Idempotency-Key HTTP Header
 * Field"). Its value is the key as sent, compared exactly: a client that follows the draft and quotes the key
 * ({@code "8e03978e-..."}) sends the quotes every time, so they are part of its key.
 */
public final class IdempotencyKeyHeader {

    public static final String NAME = "Idempotency-Key";

    private IdempotencyKeyHeader() {
    }

    /**
     * The key of a request, if it has one.
     *
     * @throws InvalidIdempotencyKeyException when the header is sent more than once or breaks the key's format
     */
    static Optional<IdempotencyKey> of(HttpServletRequest request) {
        // The raw field lines, read from the request alone (binding all headers to HttpHeaders copied every one of
        // them, 1 % of a request's CPU); Spring's comma-splitting accessors would cut a key that contains a comma.
        Enumeration<String> lines = request.getHeaders(NAME);
        if (lines == null || !lines.hasMoreElements()) {
            return Optional.empty();
        }
        String key = lines.nextElement();
        if (lines.hasMoreElements()) {
            int count = 1 + Collections.list(lines).size();
            throw new InvalidIdempotencyKeyException("must be sent once, got %d".formatted(count));
        }
        return Optional.of(new IdempotencyKey(key));
    }
}
