package dev.bookstore.ordering.application.ordering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bookstore.ordering.application.ordering.PlaceOrderCommand.Item;
import dev.bookstore.ordering.application.testing.InMemoryIdempotencyKeys;
import dev.bookstore.ordering.application.testing.InMemoryOrderRepository;
import dev.bookstore.ordering.application.testing.MutableClock;
import dev.bookstore.ordering.application.testing.RecordingDomainEventPublisher;
import dev.bookstore.ordering.domain.order.InvalidOrderException;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderCannotBeCancelledException;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderStatus;
import dev.bookstore.ordering.domain.shared.OrderingException;
import dev.bookstore.ordering.domain.shared.UuidV7;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CancelOrderServiceTest {

    private final MutableClock clock = MutableClock.at("2025-03-14T09:26:53.589Z");
    private final InMemoryOrderRepository orders = new InMemoryOrderRepository();
    private final RecordingDomainEventPublisher events = new RecordingDomainEventPublisher();
    private final CancelOrderUseCase cancelOrder = new CancelOrderService(orders, events.outbox(), clock);

    private OrderId placed;

    @BeforeEach
    void placeAnOrder() {
        OrderDetails details = new PlaceOrderService(orders, events.outbox(), new InMemoryIdempotencyKeys(clock), clock)
                .placeOrder(PlaceOrderCommand.of(UUID.randomUUID(), "EUR",
                        List.of(new Item("b-1", 1, new BigDecimal("9.99")))));
        placed = new OrderId(details.id());
        events.clear();
        clock.advance(Duration.ofMinutes(10));
    }

    @Test
    void cancellingAnOrderSavesItCancelled() {
        OrderDetails cancelled = cancelOrder.cancelOrder(placed, "changed my mind");

        assertThat(cancelled.status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(orders.findById(placed).orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void cancellingAnOrderPublishesExactlyTheOrderCancelled() {
        cancelOrder.cancelOrder(placed, "changed my mind");

        assertThat(events.events()).hasSize(1);
        assertThat(events.events().get(0)).isInstanceOfSatisfying(OrderCancelled.class, event -> {
            assertThat(event.orderId()).isEqualTo(placed);
            assertThat(event.reason()).isEqualTo("changed my mind");
            assertThat(event.occurredAt()).isEqualTo(clock.instant());
            assertThat(event.eventId().version()).isEqualTo(7);
        });
    }

    @Test
    void cancellingAnUnknownOrderIsRejected() {
        OrderId unknown = new OrderId(UuidV7.at(clock.instant()));

        assertThatThrownBy(() -> cancelOrder.cancelOrder(unknown, "changed my mind"))
                .isInstanceOf(OrderNotFoundException.class)
                .isInstanceOf(OrderingException.class)
                .hasMessageContaining(unknown.toString());
        assertThat(events.events()).isEmpty();
        assertThat(orders.saves()).isEqualTo(1);
    }

    @Test
    void cancellingACancelledOrderIsRejectedAndPublishesNothing() {
        cancelOrder.cancelOrder(placed, "changed my mind");
        events.clear();

        assertThatThrownBy(() -> cancelOrder.cancelOrder(placed, "again"))
                .isInstanceOf(OrderCannotBeCancelledException.class);
        assertThat(events.events()).isEmpty();
    }

    @Test
    void cancellingWithoutAReasonChangesNothing() {
        assertThatThrownBy(() -> cancelOrder.cancelOrder(placed, " "))
                .isInstanceOfSatisfying(InvalidOrderException.class,
                        e -> assertThat(e.field()).isEqualTo("reason"));
        assertThat(orders.findById(placed).orElseThrow().status()).isEqualTo(OrderStatus.PLACED);
        assertThat(events.events()).isEmpty();
    }
}
