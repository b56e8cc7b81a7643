package dev.bookstore.ordering.application.outbox;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A failed delivery to record: the message's attempt count goes up by one, and it is either due again at
 * {@code nextAttemptAt} or, when {@code nextAttemptAt} is null, parked for an operator.
 */
public record DeliveryFailure(UUID messageId, String error, Instant nextAttemptAt) {

    public static final int MAX_ERROR_LENGTH = 2000;

    public DeliveryFailure {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(error, "error");
        if (error.length() > MAX_ERROR_LENGTH) {
            error = error.substring(0, MAX_ERROR_LENGTH);
        }
    }

    public static DeliveryFailure retryAt(UUID messageId, String error, Instant nextAttemptAt) {
        return new DeliveryFailure(messageId, error, Objects.requireNonNull(nextAttemptAt, "nextAttemptAt"));
    }

    public static DeliveryFailure park(UUID messageId, String error) {
        return new DeliveryFailure(messageId, error, null);
    }

    public boolean parks() {
        return nextAttemptAt == null;
    }
}
