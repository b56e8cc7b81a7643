package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import java.util.List;
import java.util.Optional;

/** Reads orders. */
public interface GetOrderQuery {

    /** The most orders one {@link #recentOrders(int)} call returns. */
    int MAX_RECENT_ORDERS = 100;

    Optional<OrderDetails> findOrder(OrderId id);

    /**
     * The most recently placed orders, newest first, at most {@code limit}.
     *
     * @param limit 1 to {@value #MAX_RECENT_ORDERS}; a driving adapter checks it and tells its caller
     * @throws IllegalArgumentException for a limit out of that range: it is not clamped, because a caller that
     *                                  asks for -5 orders has a bug that a quiet answer would hide
     */
    List<OrderDetails> recentOrders(int limit);

    /** The most recently placed orders of one customer, newest first, at most {@code limit}. */
    List<OrderDetails> recentOrdersOf(CustomerId customer, int limit);
}
