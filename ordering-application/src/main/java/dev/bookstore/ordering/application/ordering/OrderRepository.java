package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import java.util.List;
import java.util.Optional;

/** Where orders are kept. Writes join the caller's transaction. */
public interface OrderRepository {

    /**
     * Stores a new order. It is inserted and nothing else: a new aggregate is never read first, so placing an
     * order costs one insert per table.
     */
    void add(Order order);

    /**
     * Stores the changed state of an order that was read in the same transaction. Only the status of an order
     * changes after it is placed.
     */
    void update(Order order);

    Optional<Order> findById(OrderId id);

    /** Newest first, at most {@code limit}. */
    List<Order> findRecent(int limit);

    /** The orders of one customer, newest first, at most {@code limit}. */
    List<Order> findRecentOf(CustomerId customer, int limit);
}
