package dev.bookstore.ordering.domain.order;

import dev.bookstore.ordering.domain.shared.OrderingException;

/** A cancellation of an order that is already cancelled. */
public class OrderCannotBeCancelledException extends OrderingException {

    public OrderCannotBeCancelledException(OrderId id, OrderStatus status) {
        super("order %s cannot be cancelled in status %s".formatted(id, status));
    }
}
