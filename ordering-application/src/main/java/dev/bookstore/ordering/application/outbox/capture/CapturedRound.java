package dev.bookstore.ordering.application.outbox.capture;

import java.time.Duration;
import java.util.Objects;

/**
 * The outcome of relaying captured messages: the first {@code settled} of them are done; when fewer than all,
 * the rest are offered again after {@code retryAfter}, with {@code reason} saying why.
 */
public record CapturedRound(int settled, Duration retryAfter, String reason) {

    public CapturedRound {
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (settled < 0) {
            throw new IllegalArgumentException("settled must not be negative, got " + settled);
        }
    }

    static CapturedRound all(int settled) {
        return new CapturedRound(settled, Duration.ZERO, null);
    }
}
