package dev.bookstore.ordering.application.ordering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bookstore.ordering.application.ordering.PlaceOrderCommand.Item;
import dev.bookstore.ordering.application.testing.InMemoryIdempotencyKeys;
import dev.bookstore.ordering.application.testing.InMemoryOrderRepository;
import dev.bookstore.ordering.application.testing.MutableClock;
import dev.bookstore.ordering.application.testing.RecordingDomainEventPublisher;
import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.InvalidOrderException;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import dev.bookstore.ordering.domain.order.OrderStatus;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import dev.bookstore.ordering.domain.shared.Money;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PlaceOrderServiceTest {

    private static final UUID CUSTOMER = UUID.fromString("3f0c6a8e-2a41-4d8f-9e43-0c1b7d5e6f70");

    private final MutableClock clock = MutableClock.at("2025-03-14T09:26:53.589Z");
    private final InMemoryOrderRepository orders = new InMemoryOrderRepository();
    private final RecordingDomainEventPublisher events = new RecordingDomainEventPublisher();
    private final InMemoryIdempotencyKeys idempotencyKeys = new InMemoryIdempotencyKeys(clock);
    private final PlaceOrderUseCase placeOrder =
            new PlaceOrderService(orders, events.outbox(), idempotencyKeys, clock);

    @Test
    void placingAnOrderSavesIt() {
        OrderDetails placed = placeOrder.placeOrder(twoBooks());

        Order saved = orders.findById(new OrderId(placed.id())).orElseThrow();
        assertThat(saved.status()).isEqualTo(OrderStatus.PLACED);
        assertThat(saved.customerId()).isEqualTo(new CustomerId(CUSTOMER));
        assertThat(saved.total()).isEqualTo(Money.of("65.48", "EUR"));
        assertThat(saved.placedAt()).isEqualTo(clock.instant());
        assertThat(orders.saves()).isEqualTo(1);
    }

    @Test
    void anOrderWithoutAnIdempotencyKeyTouchesNoKey() {
        placeOrder.placeOrder(twoBooks());
        placeOrder.placeOrder(twoBooks());

        assertThat(orders.size()).isEqualTo(2);
        assertThat(idempotencyKeys.claims()).isZero();
    }

    @Test
    void placingAnOrderPublishesExactlyTheOrderPlaced() {
        OrderDetails placed = placeOrder.placeOrder(twoBooks());

        assertThat(events.calls()).hasSize(1);
        List<DomainEvent> published = events.events();
        assertThat(published).hasSize(1);
        assertThat(published.get(0)).isInstanceOfSatisfying(OrderPlaced.class, event -> {
            assertThat(event.orderId().value()).isEqualTo(placed.id());
            assertThat(event.customerId().value()).isEqualTo(CUSTOMER);
            assertThat(event.total()).isEqualTo(Money.of("65.48", "EUR"));
            assertThat(event.occurredAt()).isEqualTo(clock.instant());
            assertThat(event.eventId().version()).isEqualTo(7);
            assertThat(event.lines()).hasSize(2);
        });
    }

    @Test
    void theDetailsDescribeThePlacedOrder() {
        OrderDetails placed = placeOrder.placeOrder(twoBooks());

        assertThat(placed.customerId()).isEqualTo(CUSTOMER);
        assertThat(placed.status()).isEqualTo(OrderStatus.PLACED);
        assertThat(placed.total()).isEqualTo(Money.of("65.48", "EUR"));
        assertThat(placed.placedAt()).isEqualTo(clock.instant());
        assertThat(placed.lines()).extracting(OrderLine::bookId)
                .containsExactly(new BookId("978-0134494166"), new BookId("978-0201633610"));
    }

    @Test
    void theClockDecidesWhenTheOrderWasPlaced() {
        OrderDetails first = placeOrder.placeOrder(twoBooks());
        clock.advance(Duration.ofMinutes(3));
        OrderDetails second = placeOrder.placeOrder(twoBooks());

        assertThat(second.placedAt()).isEqualTo(first.placedAt().plusSeconds(180));
        assertThat(events.events(OrderPlaced.class)).extracting(OrderPlaced::occurredAt)
                .containsExactly(first.placedAt(), second.placedAt());
    }

    @Test
    void anOrderTheAggregateRejectsIsNeitherSavedNorPublished() {
        PlaceOrderCommand mixedCurrencies = new PlaceOrderCommand(new CustomerId(CUSTOMER),
                Currency.getInstance("EUR"),
                List.of(new OrderLine(new BookId("b-1"), 1, Money.of("9.99", "USD"))));

        assertThatThrownBy(() -> placeOrder.placeOrder(mixedCurrencies))
                .isInstanceOfSatisfying(InvalidOrderException.class,
                        e -> assertThat(e.field()).isEqualTo("items[0].unitPrice"));
        assertThat(orders.size()).isZero();
        assertThat(events.events()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 101})
    void aLineCountOutsideOneToOneHundredIsRejectedByTheDomainNamingItems(int count) {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(new Item("b-" + i, 1, new BigDecimal("9.99")));
        }
        PlaceOrderCommand command = PlaceOrderCommand.of(CUSTOMER, "EUR", items);

        assertThatThrownBy(() -> placeOrder.placeOrder(command))
                .isInstanceOfSatisfying(InvalidOrderException.class,
                        e -> assertThat(e.field()).isEqualTo("items"));
        assertThat(orders.size()).isZero();
        assertThat(events.events()).isEmpty();
    }

    private static PlaceOrderCommand twoBooks() {
        return PlaceOrderCommand.of(CUSTOMER, "EUR", List.of(
                new Item("978-0134494166", 2, new BigDecimal("9.99")),
                new Item("978-0201633610", 1, new BigDecimal("45.50"))));
    }
}
