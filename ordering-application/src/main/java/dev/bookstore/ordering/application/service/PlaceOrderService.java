package dev.bookstore.ordering.application.service;

import dev.bookstore.ordering.application.port.in.OrderDetails;
import dev.bookstore.ordering.application.port.in.PlaceOrderCommand;
import dev.bookstore.ordering.application.port.in.PlaceOrderUseCase;
import dev.bookstore.ordering.application.port.out.DomainEventPublisher;
import dev.bookstore.ordering.application.port.out.OrderRepository;
import dev.bookstore.ordering.domain.order.Order;
import java.time.Clock;

/** Places an order; the caller's transaction covers the order and its outbox message. */
final class PlaceOrderService implements PlaceOrderUseCase {

    private final OrderRepository orders;
    private final DomainEventPublisher events;
    private final Clock clock;

    PlaceOrderService(OrderRepository orders, DomainEventPublisher events, Clock clock) {
        this.orders = orders;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public OrderDetails placeOrder(PlaceOrderCommand command) {
        Order order = Order.place(command.customerId(), command.currency(), command.lines(), clock.instant());
        orders.add(order);
        events.publish(order.pullRecordedEvents());
        return OrderDetails.of(order);
    }
}
