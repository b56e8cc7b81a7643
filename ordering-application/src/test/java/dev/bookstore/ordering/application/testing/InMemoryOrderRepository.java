package dev.bookstore.ordering.application.testing;

import dev.bookstore.ordering.application.ordering.OrderRepository;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderStatus;
import java.time.Instant;
import java.util.Comparator;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@link OrderRepository} in a map. Like a database it keeps the state, not the object: every read
 * reconstitutes a fresh {@link Order}, so events recorded on a saved instance never reappear on a loaded one,
 * and a change that was not saved is not seen by the next read.
 */
public final class InMemoryOrderRepository implements OrderRepository {

    private final Map<OrderId, StoredOrder> orders = new LinkedHashMap<>();
    private int saves;

    @Override
    public synchronized void add(Order order) {
        if (orders.containsKey(order.id())) {
            throw new IllegalStateException("order " + order.id() + " is already stored; add is for new orders");
        }
        store(order);
    }

    @Override
    public synchronized void update(Order order) {
        if (!orders.containsKey(order.id())) {
            throw new IllegalStateException("order " + order.id() + " is not stored; update is for stored orders");
        }
        store(order);
    }

    private void store(Order order) {
        orders.put(order.id(), new StoredOrder(order.id(), order.customerId(), order.currency(), order.lines(),
                order.status(), order.placedAt()));
        saves++;
    }

    @Override
    public synchronized Optional<Order> findById(OrderId id) {
        return Optional.ofNullable(orders.get(id)).map(StoredOrder::toOrder);
    }

    @Override
    public synchronized List<Order> findRecent(int limit) {
        return newestFirst(orders.values().stream(), limit);
    }

    @Override
    public synchronized List<Order> findRecentOf(CustomerId customer, int limit) {
        return newestFirst(orders.values().stream().filter(stored -> stored.customerId().equals(customer)), limit);
    }

    private static List<Order> newestFirst(Stream<StoredOrder> candidates, int limit) {
        return candidates
                .sorted(Comparator.comparing(StoredOrder::placedAt)
                        .thenComparing(stored -> stored.id().value().toString())
                        .reversed())
                .limit(limit)
                .map(StoredOrder::toOrder)
                .toList();
    }

    /** How many orders are stored. */
    public synchronized int size() {
        return orders.size();
    }

    /** How many times {@link #add(Order)} or {@link #update(Order)} was called. */
    public synchronized int saves() {
        return saves;
    }

    private record StoredOrder(OrderId id, CustomerId customerId, Currency currency, List<OrderLine> lines,
                               OrderStatus status, Instant placedAt) {

        Order toOrder() {
            return Order.reconstitute(id, customerId, currency, lines, status, placedAt);
        }
    }
}
