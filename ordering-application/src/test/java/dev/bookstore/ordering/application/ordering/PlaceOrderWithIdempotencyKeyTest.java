package dev.bookstore.ordering.application.ordering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeyReusedException;
import dev.bookstore.ordering.application.idempotency.RequestInProgressException;
import dev.bookstore.ordering.application.ordering.PlaceOrderCommand.Item;
import dev.bookstore.ordering.application.testing.InMemoryIdempotencyKeys.OpenRequest;
import dev.bookstore.ordering.application.testing.InMemoryIdempotencyKeys;
import dev.bookstore.ordering.application.testing.InMemoryOrderRepository;
import dev.bookstore.ordering.application.testing.MutableClock;
import dev.bookstore.ordering.application.testing.RecordingDomainEventPublisher;
import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.InvalidOrderException;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderStatus;
import dev.bookstore.ordering.domain.shared.Money;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Currency;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Placing an order with an idempotency key: once per key and customer, whatever the retries. */
class PlaceOrderWithIdempotencyKeyTest {

    private static final UUID CUSTOMER = UUID.fromString("3f0c6a8e-2a41-4d8f-9e43-0c1b7d5e6f70");
    private static final UUID OTHER_CUSTOMER = UUID.fromString("3f0c6a8e-2a41-4d8f-9e43-0c1b7d5e6f71");
    private static final IdempotencyKey KEY = new IdempotencyKey("8e03978e-40d5-43e8-bc93-6894a57f9324");

    private final MutableClock clock = MutableClock.at("2025-03-14T09:26:53.589Z");
    private final InMemoryOrderRepository orders = new InMemoryOrderRepository();
    private final RecordingDomainEventPublisher events = new RecordingDomainEventPublisher();
    private final InMemoryIdempotencyKeys keys = new InMemoryIdempotencyKeys(clock);
    private final PlaceOrderUseCase placeOrder = new PlaceOrderService(orders, events.outbox(), keys, clock);

    @Test
    void theFirstRequestWithAKeyPlacesTheOrderAndRecordsTheKey() {
        OrderDetails placed = placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));

        assertThat(orders.findById(new OrderId(placed.id()))).isPresent();
        assertThat(events.events()).hasSize(1);
        assertThat(keys.size()).isOne();
    }

    @Test
    void aRetryWithTheSameKeyAndCommandAnswersTheFirstOrderAndWritesNothing() {
        OrderDetails first = placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));
        clock.advance(Duration.ofSeconds(30));

        OrderDetails retry = placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));

        assertThat(retry).isEqualTo(first);
        assertThat(orders.size()).isOne();
        assertThat(orders.saves()).isOne();
        assertThat(events.calls()).hasSize(1);
        assertThat(keys.size()).isOne();
    }

    @Test
    void aRetryAnswersTheOrderAsItIsNow() {
        OrderDetails first = placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));
        var cancelled = orders.findById(new OrderId(first.id())).orElseThrow();
        cancelled.cancel("changed my mind", clock.instant());
        orders.update(cancelled);

        OrderDetails retry = placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));

        assertThat(retry.id()).isEqualTo(first.id());
        assertThat(retry.status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void theSameOrderWrittenDifferentlyIsTheSameRequest() {
        OrderDetails first = placeOrder.placeOrder(PlaceOrderCommand.of(CUSTOMER, "EUR", List.of(
                new Item("978-0134494166", 2, new BigDecimal("9.9")))).withIdempotencyKey(KEY));

        OrderDetails retry = placeOrder.placeOrder(PlaceOrderCommand.of(CUSTOMER, "EUR", List.of(
                new Item("978-0134494166", 2, new BigDecimal("9.900")))).withIdempotencyKey(KEY));

        assertThat(retry.id()).isEqualTo(first.id());
        assertThat(orders.size()).isOne();
    }

    @Test
    void theSameKeyWithADifferentCommandIsRefusedAndWritesNothing() {
        placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));
        events.clear();
        PlaceOrderCommand different = PlaceOrderCommand.of(CUSTOMER, "EUR", List.of(
                new Item("978-0134494166", 3, new BigDecimal("9.99")))).withIdempotencyKey(KEY);

        assertThatThrownBy(() -> placeOrder.placeOrder(different))
                .isInstanceOf(IdempotencyKeyReusedException.class);
        assertThat(orders.size()).isOne();
        assertThat(events.events()).isEmpty();
        assertThat(keys.size()).isOne();
    }

    @Test
    void whileTheFirstRequestIsInFlightASecondOneIsRefusedAndWritesNothing() {
        OpenRequest first = keys.begin(new CustomerId(CUSTOMER), KEY, "in flight", new OrderId(UUID.randomUUID()));

        assertThatThrownBy(() -> placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY)))
                .isInstanceOf(RequestInProgressException.class);
        assertThat(orders.size()).isZero();
        assertThat(events.events()).isEmpty();
        first.rollback();
    }

    @Test
    void whenTheFirstRequestRolledBackTheRetryPlacesTheOrder() {
        keys.begin(new CustomerId(CUSTOMER), KEY, "rolled back", new OrderId(UUID.randomUUID())).rollback();

        OrderDetails placed = placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));

        assertThat(orders.findById(new OrderId(placed.id()))).isPresent();
        assertThat(events.events()).hasSize(1);
    }

    @Test
    void theSameKeyOfAnotherCustomerPlacesAnotherOrder() {
        OrderDetails mine = placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));

        OrderDetails theirs = placeOrder.placeOrder(twoBooks(OTHER_CUSTOMER).withIdempotencyKey(KEY));

        assertThat(theirs.id()).isNotEqualTo(mine.id());
        assertThat(orders.size()).isEqualTo(2);
    }

    @Test
    void anotherKeyPlacesAnotherOrder() {
        placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));
        placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(new IdempotencyKey("another")));

        assertThat(orders.size()).isEqualTo(2);
        assertThat(keys.size()).isEqualTo(2);
    }

    @Test
    void anOrderTheAggregateRejectsDoesNotTakeTheKey() {
        PlaceOrderCommand mixedCurrencies = new PlaceOrderCommand(new CustomerId(CUSTOMER),
                Currency.getInstance("EUR"), List.of(new OrderLine(new BookId("b-1"), 1, Money.of("9.99", "USD"))))
                .withIdempotencyKey(KEY);

        assertThatThrownBy(() -> placeOrder.placeOrder(mixedCurrencies)).isInstanceOf(InvalidOrderException.class);
        assertThat(keys.claims()).isZero();

        OrderDetails placed = placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));
        assertThat(orders.findById(new OrderId(placed.id()))).isPresent();
    }

    @Test
    void anExpiredKeyThatWasDeletedPlacesANewOrder() {
        OrderDetails first = placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));
        clock.advance(Duration.ofHours(25));
        keys.deleteExpired(Duration.ofHours(24), 100);

        OrderDetails second = placeOrder.placeOrder(twoBooks(CUSTOMER).withIdempotencyKey(KEY));

        assertThat(second.id()).isNotEqualTo(first.id());
        assertThat(orders.size()).isEqualTo(2);
    }

    private static PlaceOrderCommand twoBooks(UUID customer) {
        return PlaceOrderCommand.of(customer, "EUR", List.of(
                new Item("978-0134494166", 2, new BigDecimal("9.99")),
                new Item("978-0201633610", 1, new BigDecimal("45.50"))));
    }
}
