package dev.bookstore.ordering.adapters.messaging.out;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/** The body of a {@code bookstore.order-cancelled.v1} message as a consumer reads it. */
public record OrderCancelledPayload(UUID orderId, String reason, Instant cancelledAt) {

    public OrderCancelledPayload {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(cancelledAt, "cancelledAt");
    }
}
