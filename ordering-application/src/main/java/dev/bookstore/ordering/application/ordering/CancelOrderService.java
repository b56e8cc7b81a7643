package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.application.outbox.EventOutbox;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import java.time.Clock;

/** Cancels an order; the caller's transaction covers the change and its outbox message. */
public final class CancelOrderService implements CancelOrderUseCase {

    private final OrderRepository orders;
    private final EventOutbox events;
    private final Clock clock;

    public CancelOrderService(OrderRepository orders, EventOutbox events, Clock clock) {
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
