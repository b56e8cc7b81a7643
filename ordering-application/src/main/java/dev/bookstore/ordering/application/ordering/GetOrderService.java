package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import java.util.List;
import java.util.Optional;

public final class GetOrderService implements GetOrderQuery {

    private final OrderRepository orders;

    public GetOrderService(OrderRepository orders) {
        this.orders = orders;
    }

    @Override
    public Optional<OrderDetails> findOrder(OrderId id) {
        return orders.findById(id).map(OrderDetails::of);
    }

    @Override
    public List<OrderDetails> recentOrders(int limit) {
        checkLimit(limit);
        return orders.findRecent(limit).stream().map(OrderDetails::of).toList();
    }

    @Override
    public List<OrderDetails> recentOrdersOf(CustomerId customer, int limit) {
        checkLimit(limit);
        return orders.findRecentOf(customer, limit).stream().map(OrderDetails::of).toList();
    }

    private static void checkLimit(int limit) {
        if (limit < 1 || limit > MAX_RECENT_ORDERS) {
            throw new IllegalArgumentException(
                    "limit must be between 1 and %d, got %d".formatted(MAX_RECENT_ORDERS, limit));
        }
    }
}
