package dev.bookstore.ordering.domain.order;

import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/** An order was cancelled, with the reason the customer or an operator gave. */
public record OrderCancelled(UUID eventId, Instant occurredAt, OrderId orderId, String reason)
        implements DomainEvent {

    public OrderCancelled {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(occurredAt, "occurredAt");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(reason, "reason");
    }

    @Override
    public UUID aggregateId() {
        return orderId.value();
    }
}
