package dev.bookstore.ordering.domain.order;

import dev.bookstore.ordering.domain.shared.DomainEvent;
import dev.bookstore.ordering.domain.shared.Money;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/** An order was placed. Carries values only, never the aggregate. */
public record OrderPlaced(
        UUID eventId,
        Instant occurredAt,
        OrderId orderId,
        CustomerId customerId,
        Money total,
        List<OrderLine> lines) implements DomainEvent {

    public OrderPlaced {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(occurredAt, "occurredAt");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(customerId, "customerId");
        Objects.requireNonNull(total, "total");
        lines = List.copyOf(lines);
    }

    @Override
    public UUID aggregateId() {
        return orderId.value();
    }
}
