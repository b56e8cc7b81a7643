package dev.bookstore.ordering.application.port.in;

import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import java.util.List;
import java.util.Optional;

/** Reads orders. */
public interface GetOrderQuery {

    Optional<OrderDetails> findOrder(OrderId id);

    /** The most recently placed orders, newest first, at most {@code limit}. */
    List<OrderDetails> recentOrders(int limit);

    /** The most recently placed orders of one customer, newest first, at most {@code limit}. */
    List<OrderDetails> recentOrdersOf(CustomerId customer, int limit);
}
