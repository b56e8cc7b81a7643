package dev.bookstore.ordering.application.outbox.capture;

import dev.bookstore.ordering.application.outbox.relay.Backoff;
import dev.bookstore.ordering.application.outbox.relay.RelaySettings.Unroutable;
import java.time.Duration;
import java.util.Objects;

/**
 * The CDC relay's policy knobs, the polling relay's where they mean the same.
 *
 * @param confirmTimeout how long to wait for the broker's confirms of one wave
 * @param maxAttempts failed deliveries after which a message is parked
 * @param backoff delay before the next attempt of a failed message
 * @param brokerRetry delay before trying again while the broker is unavailable (no attempt is counted)
 * @param unroutable what a message that no queue took becomes
 */
public record CaptureSettings(Duration confirmTimeout, int maxAttempts, Backoff backoff, Duration brokerRetry,
                              Unroutable unroutable) {

    public CaptureSettings {
        Objects.requireNonNull(confirmTimeout, "confirmTimeout");
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(brokerRetry, "brokerRetry");
        Objects.requireNonNull(unroutable, "unroutable");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
    }
}
