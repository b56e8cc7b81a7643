package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderStatus;
import dev.bookstore.ordering.domain.shared.Money;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A read-only view of an order for driving adapters, so they never hold the aggregate itself. */
public record OrderDetails(UUID id, UUID customerId, Money total, OrderStatus status, Instant placedAt,
                           List<OrderLine> lines) {

    public static OrderDetails of(Order order) {
        return new OrderDetails(order.id().value(), order.customerId().value(), order.total(), order.status(),
                order.placedAt(), order.lines());
    }
}
