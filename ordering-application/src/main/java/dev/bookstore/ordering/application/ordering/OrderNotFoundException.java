package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.shared.OrderingException;

/** Asked for an order that does not exist. */
public class OrderNotFoundException extends OrderingException {

    public OrderNotFoundException(OrderId id) {
        super("no order with id " + id);
    }
}
