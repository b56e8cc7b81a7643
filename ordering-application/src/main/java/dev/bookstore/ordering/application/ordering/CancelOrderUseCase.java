package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.domain.order.OrderId;

/** Cancels a placed order and records {@code OrderCancelled}. */
public interface CancelOrderUseCase {

    /** @throws OrderNotFoundException when there is no such order */
    OrderDetails cancelOrder(OrderId orderId, String reason);
}
