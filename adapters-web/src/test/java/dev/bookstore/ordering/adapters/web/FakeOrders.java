package dev.bookstore.ordering.adapters.web;

import dev.bookstore.ordering.application.ordering.CancelOrderUseCase;
import dev.bookstore.ordering.application.ordering.GetOrderQuery;
import dev.bookstore.ordering.application.ordering.OrderDetails;
import dev.bookstore.ordering.application.ordering.PlaceOrderCommand;
import dev.bookstore.ordering.application.ordering.PlaceOrderUseCase;
import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderStatus;
import dev.bookstore.ordering.domain.shared.Money;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** The order use cases in memory, remembering every command that reached them. */
final class FakeOrders implements PlaceOrderUseCase, CancelOrderUseCase, GetOrderQuery {

    private final Map<UUID, OrderDetails> orders = new ConcurrentHashMap<>();
    private final List<PlaceOrderCommand> placed = new CopyOnWriteArrayList<>();

    void clear() {
        orders.clear();
        placed.clear();
    }

    /** The commands {@code placeOrder} was called with. */
    List<PlaceOrderCommand> placed() {
        return List.copyOf(placed);
    }

    /** Stores an order of {@code customerId} as if it had been placed earlier. */
    OrderDetails existing(UUID customerId) {
        OrderLine line = new OrderLine(new BookId("978-0134494166"), 1,
                Money.of("9.95", "EUR"));
        OrderDetails order = new OrderDetails(UUID.randomUUID(), customerId, line.lineTotal(), OrderStatus.PLACED,
                Instant.now(), List.of(line));
        orders.put(order.id(), order);
        return order;
    }

    @Override
    public OrderDetails placeOrder(PlaceOrderCommand command) {
        placed.add(command);
        Money total = Money.zero(command.currency());
        for (OrderLine line : command.lines()) {
            total = total.plus(line.lineTotal());
        }
        OrderDetails order = new OrderDetails(UUID.randomUUID(), command.customerId().value(), total,
                OrderStatus.PLACED, Instant.now(), command.lines());
        orders.put(order.id(), order);
        return order;
    }

    @Override
    public OrderDetails cancelOrder(OrderId orderId, String reason) {
        OrderDetails order = orders.get(orderId.value());
        OrderDetails cancelled = new OrderDetails(order.id(), order.customerId(), order.total(),
                OrderStatus.CANCELLED, order.placedAt(), order.lines());
        orders.put(order.id(), cancelled);
        return cancelled;
    }

    @Override
    public Optional<OrderDetails> findOrder(OrderId id) {
        return Optional.ofNullable(orders.get(id.value()));
    }

    @Override
    public List<OrderDetails> recentOrders(int limit) {
        return newest(orders.values(), limit);
    }

    @Override
    public List<OrderDetails> recentOrdersOf(CustomerId customer, int limit) {
        return newest(orders.values().stream().filter(o -> o.customerId().equals(customer.value())).toList(), limit);
    }

    private static List<OrderDetails> newest(Collection<OrderDetails> orders, int limit) {
        List<OrderDetails> sorted = new ArrayList<>(orders);
        sorted.sort(Comparator.comparing(OrderDetails::placedAt).reversed());
        return sorted.subList(0, Math.min(limit, sorted.size()));
    }
}
