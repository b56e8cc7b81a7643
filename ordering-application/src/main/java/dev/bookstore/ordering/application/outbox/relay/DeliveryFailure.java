package dev.bookstore.ordering.application.outbox.relay;

import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * A failed delivery to record: the message's attempt count goes up by one, and it is either due again
 * {@code retryAfter} from now — now by the database's clock, never the relay's: the store adds the delay to the
 * database's time, the same time the claim compares {@code next_attempt_at} with — or, when {@code retryAfter} is
 * null, parked for an operator.
 */
public record DeliveryFailure(UUID messageId, String error, Duration retryAfter) {

    public static final int MAX_ERROR_LENGTH = 2000;

    public DeliveryFailure {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(error, "error");
        if (retryAfter != null && retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative, got " + retryAfter);
        }
        if (error.length() > MAX_ERROR_LENGTH) {
            error = error.substring(0, MAX_ERROR_LENGTH);
        }
    }

    public static DeliveryFailure retryAfter(UUID messageId, String error, Duration delay) {
        return new DeliveryFailure(messageId, error, Objects.requireNonNull(delay, "delay"));
    }

    public static DeliveryFailure park(UUID messageId, String error) {
        return new DeliveryFailure(messageId, error, null);
    }

    public boolean parks() {
        return retryAfter == null;
    }
}
