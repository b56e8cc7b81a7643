package dev.bookstore.ordering.application.service;

import dev.bookstore.ordering.application.port.in.CancelOrderUseCase;
import dev.bookstore.ordering.application.port.in.OrderDetails;
import dev.bookstore.ordering.application.port.in.OrderNotFoundException;
import dev.bookstore.ordering.application.port.out.OrderRepository;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import java.time.Clock;

/** Cancels an order; the caller's transaction covers the change and its outbox message. */
final class CancelOrderService implements CancelOrderUseCase {

    private final OrderRepository orders;
    private final EventOutbox events;
    private final Clock clock;

    CancelOrderService(OrderRepository orders, EventOutbox events, Clock clock) {
        this.orders = orders;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public OrderDetails cancelOrder(OrderId orderId, String reason) {
        Order order = orders.findById(orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
        order.cancel(reason, clock.instant());
        orders.update(order);
        events.record(order.pullRecordedEvents());
        return OrderDetails.of(order);
    }
}
