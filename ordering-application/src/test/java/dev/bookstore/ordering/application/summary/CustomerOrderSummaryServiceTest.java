package dev.bookstore.ordering.application.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.bookstore.ordering.application.ordering.CancelOrderService;
import dev.bookstore.ordering.application.ordering.PlaceOrderCommand.Item;
import dev.bookstore.ordering.application.ordering.PlaceOrderCommand;
import dev.bookstore.ordering.application.ordering.PlaceOrderService;
import dev.bookstore.ordering.application.testing.InMemoryIdempotencyKeys;
import dev.bookstore.ordering.application.testing.InMemoryOrderRepository;
import dev.bookstore.ordering.application.testing.MutableClock;
import dev.bookstore.ordering.application.testing.RecordingDomainEventPublisher;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CustomerOrderSummaryServiceTest {

    private final MutableClock clock = MutableClock.at("2025-03-14T09:26:53.589Z");
    private final InMemoryOrderRepository orders = new InMemoryOrderRepository();
    private final RecordingDomainEventPublisher events = new RecordingDomainEventPublisher();
    private final Summaries summaries = new Summaries();
    private final SummarizeOrderEventsUseCase summarize = new CustomerOrderSummaryService(summaries, orders);
    private final GetCustomerOrderSummaryQuery query = new GetCustomerOrderSummaryService(summaries);
    private final UUID customer = UUID.randomUUID();

    @Test
    void aCustomerWithoutCountedEventsHasZeros() {
        assertThat(query.summaryOf(new CustomerId(customer)))
                .isEqualTo(new CustomerOrderSummary(new CustomerId(customer), 0, 0, Optional.empty()));
    }

    @Test
    void placedAndCancelledOrdersAreCountedForTheirCustomer() {
        OrderPlaced first = place();
        clock.advance(Duration.ofMinutes(1));
        OrderPlaced second = place();
        OrderCancelled cancelled = cancel(first.orderId());

        summarize.orderPlaced(first);
        summarize.orderPlaced(second);
        summarize.orderCancelled(cancelled);

        CustomerOrderSummary summary = query.summaryOf(new CustomerId(customer));
        assertThat(summary.ordersPlaced()).isEqualTo(2);
        assertThat(summary.ordersCancelled()).isEqualTo(1);
        assertThat(summary.lastOrderAt()).contains(second.occurredAt());
    }

    @Test
    void anEventHandedOverAgainCountsOnce() {
        OrderPlaced placed = place();
        OrderCancelled cancelled = cancel(placed.orderId());

        for (int i = 0; i < 3; i++) {
            summarize.orderPlaced(placed);
            summarize.orderCancelled(cancelled);
        }

        CustomerOrderSummary summary = query.summaryOf(new CustomerId(customer));
        assertThat(summary.ordersPlaced()).isEqualTo(1);
        assertThat(summary.ordersCancelled()).isEqualTo(1);
    }

    @Test
    void aCancellationOfAnOrderThatIsNotStoredFailsSoThatItIsResubmitted() {
        OrderCancelled unknown = new OrderCancelled(UUID.randomUUID(), clock.instant(),
                new OrderId(UUID.randomUUID()), "");

        assertThatIllegalStateException().isThrownBy(() -> summarize.orderCancelled(unknown));
    }

    private OrderPlaced place() {
        events.clear();
        new PlaceOrderService(orders, events.outbox(), new InMemoryIdempotencyKeys(clock), clock)
                .placeOrder(PlaceOrderCommand.of(customer, "EUR", List.of(new Item("b-1", 1, new BigDecimal("9.99")))));
        return (OrderPlaced) events.events().get(0);
    }

    private OrderCancelled cancel(OrderId order) {
        events.clear();
        new CancelOrderService(orders, events.outbox(), clock).cancelOrder(order, "changed my mind");
        return (OrderCancelled) events.events().get(0);
    }

    /** Summaries in memory; a test of the service only, the JDBC store runs against PostgreSQL in bootstrap. */
    private static final class Summaries implements CustomerOrderSummaries {

        private final Set<UUID> events = new HashSet<>();
        private final Map<CustomerId, CustomerOrderSummary> rows = new HashMap<>();

        @Override
        public boolean recordEvent(UUID eventId) {
            return events.add(eventId);
        }

        @Override
        public void addPlaced(CustomerId customer, Instant placedAt) {
            CustomerOrderSummary row = rows.getOrDefault(customer, CustomerOrderSummary.none(customer));
            Instant last = row.lastOrderAt().filter(at -> at.isAfter(placedAt)).orElse(placedAt);
            rows.put(customer, new CustomerOrderSummary(customer, row.ordersPlaced() + 1, row.ordersCancelled(),
                    Optional.of(last)));
        }

        @Override
        public void addCancelled(CustomerId customer) {
            CustomerOrderSummary row = rows.getOrDefault(customer, CustomerOrderSummary.none(customer));
            rows.put(customer, new CustomerOrderSummary(customer, row.ordersPlaced(), row.ordersCancelled() + 1,
                    row.lastOrderAt()));
        }

        @Override
        public Optional<CustomerOrderSummary> find(CustomerId customer) {
            return Optional.ofNullable(rows.get(customer));
        }
    }
}
