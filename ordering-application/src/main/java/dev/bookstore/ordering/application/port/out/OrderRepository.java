package dev.bookstore.ordering.application.port.out;

import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import java.util.List;
import java.util.Optional;

/** Where orders are kept. Saving joins the caller's transaction. */
public interface OrderRepository {

    void save(Order order);

    Optional<Order> findById(OrderId id);

    /** Newest first, at most {@code limit}. */
    List<Order> findRecent(int limit);
}
