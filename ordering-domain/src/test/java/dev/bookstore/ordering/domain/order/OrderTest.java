package dev.bookstore.ordering.domain.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bookstore.ordering.domain.shared.DomainEvent;
import dev.bookstore.ordering.domain.shared.Money;
import dev.bookstore.ordering.domain.shared.UuidV7Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OrderTest {

    private static final Instant NOW = Instant.parse("2025-03-14T09:26:53.589Z");
    private static final Currency EUR = Currency.getInstance("EUR");
    private static final CustomerId CUSTOMER = new CustomerId(UUID.fromString("3f0c6a8e-2a41-4d8f-9e43-0c1b7d5e6f70"));

    // --- placing

    @Test
    void placingAnOrderRecordsOrderPlaced() {
        List<OrderLine> lines = List.of(line("978-0134494166", 2, "9.99"), line("978-0201633610", 1, "45.50"));

        Order order = Order.place(CUSTOMER, EUR, lines, NOW);

        List<DomainEvent> events = order.pullRecordedEvents();
        assertThat(events).hasSize(1);
        assertThat(events.get(0)).isInstanceOfSatisfying(OrderPlaced.class, placed -> {
            assertThat(placed.orderId()).isEqualTo(order.id());
            assertThat(placed.aggregateId()).isEqualTo(order.id().value());
            assertThat(placed.customerId()).isEqualTo(CUSTOMER);
            assertThat(placed.total()).isEqualTo(Money.of("65.48", "EUR"));
            assertThat(placed.lines()).containsExactlyElementsOf(lines);
        });
    }

    @Test
    void orderPlacedHasAVersion7EventIdAndOccursAtTheGivenInstant() {
        Instant withNanos = NOW.plusNanos(123_456);

        OrderPlaced placed = (OrderPlaced) Order.place(CUSTOMER, EUR, List.of(line("b-1", 1, "9.99")), withNanos)
                .pullRecordedEvents().get(0);

        assertThat(placed.eventId().version()).isEqualTo(7);
        assertThat(placed.occurredAt()).isEqualTo(withNanos);
        assertThat(UuidV7Timestamps.timestampOf(placed.eventId())).isEqualTo(NOW);
    }

    @Test
    void everyPlacedOrderGetsItsOwnOrderIdAndEventId() {
        Order first = Order.place(CUSTOMER, EUR, List.of(line("b-1", 1, "9.99")), NOW);
        Order second = Order.place(CUSTOMER, EUR, List.of(line("b-1", 1, "9.99")), NOW);

        assertThat(first.id()).isNotEqualTo(second.id());
        assertThat(first.pullRecordedEvents().get(0).eventId())
                .isNotEqualTo(second.pullRecordedEvents().get(0).eventId());
    }

    @Test
    void aPlacedOrderIsPlacedAtTheGivenInstantWithAVersion7Id() {
        Order order = Order.place(CUSTOMER, EUR, List.of(line("b-1", 1, "9.99")), NOW);

        assertThat(order.status()).isEqualTo(OrderStatus.PLACED);
        assertThat(order.placedAt()).isEqualTo(NOW);
        assertThat(order.customerId()).isEqualTo(CUSTOMER);
        assertThat(order.currency()).isEqualTo(EUR);
        assertThat(order.id().value().version()).isEqualTo(7);
        assertThat(UuidV7Timestamps.timestampOf(order.id().value())).isEqualTo(NOW);
    }

    @Test
    void theTotalIsTheSumOfTheLines() {
        Order order = Order.place(CUSTOMER, EUR, List.of(
                line("b-1", 2, "9.99"),
                line("b-2", 1, "15.50"),
                line("b-3", 3, "0.01")), NOW);

        assertThat(order.total()).isEqualTo(Money.of("35.51", "EUR"));
    }

    @Test
    void theTotalOfAYenOrderHasNoDecimals() {
        Currency yen = Currency.getInstance("JPY");
        Order order = Order.place(CUSTOMER, yen, List.of(
                new OrderLine(new BookId("b-1"), 2, Money.of("1500", "JPY")),
                new OrderLine(new BookId("b-2"), 1, Money.of("980", "JPY"))), NOW);

        assertThat(order.total()).isEqualTo(Money.of("3980", "JPY"));
        assertThat(order.total().amount().scale()).isZero();
    }

    @Test
    void anOrderWithoutLinesIsRejected() {
        assertThat(rejected(() -> Order.place(CUSTOMER, EUR, List.of(), NOW)).field()).isEqualTo("items");
    }

    @Test
    void anOrderWithOneHundredLinesIsAccepted() {
        Order order = Order.place(CUSTOMER, EUR, lines(100), NOW);

        assertThat(order.lines()).hasSize(100);
        assertThat(order.total()).isEqualTo(Money.of("100.00", "EUR"));
    }

    @Test
    void theLargestPossibleOrderStillHasATotal() {
        // 100 lines of 1000 books at the highest unit price: the bounds of OrderLine keep this within Money's.
        List<OrderLine> lines = new ArrayList<>();
        for (int i = 0; i < Order.MAX_LINES; i++) {
            lines.add(line("b-" + i, OrderLine.MAX_QUANTITY, "9999999999.99"));
        }

        Order order = Order.place(CUSTOMER, EUR, lines, NOW);

        assertThat(order.total()).isEqualTo(Money.of("999999999999000.00", "EUR"));
    }

    @Test
    void anOrderWithOneHundredAndOneLinesIsRejected() {
        InvalidOrderException rejected = rejected(() -> Order.place(CUSTOMER, EUR, lines(101), NOW));

        assertThat(rejected.field()).isEqualTo("items");
        assertThat(rejected.reason()).contains("101");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 99})
    void aLinePricedInAnotherCurrencyIsRejectedWithItsIndex(int index) {
        List<OrderLine> lines = new ArrayList<>(lines(100));
        lines.set(index, new OrderLine(new BookId("b-usd"), 1, Money.of("9.99", "USD")));

        InvalidOrderException rejected = rejected(() -> Order.place(CUSTOMER, EUR, lines, NOW));

        assertThat(rejected.field()).isEqualTo("items[" + index + "].unitPrice");
        assertThat(rejected.reason()).contains("USD").contains("EUR");
    }

    @Test
    void theLinesCannotBeChangedFromOutside() {
        List<OrderLine> lines = new ArrayList<>(List.of(line("b-1", 1, "9.99")));
        Order order = Order.place(CUSTOMER, EUR, lines, NOW);

        lines.add(line("b-2", 1, "100.00"));

        assertThat(order.lines()).hasSize(1);
        assertThat(order.total()).isEqualTo(Money.of("9.99", "EUR"));
        assertThatThrownBy(() -> order.lines().add(line("b-3", 1, "1.00")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    // --- reconstituting

    @Test
    void aReconstitutedOrderRecordsNothing() {
        Order order = Order.reconstitute(OrderId.newId(NOW), CUSTOMER, EUR, List.of(line("b-1", 2, "9.99")),
                OrderStatus.PLACED, NOW);

        assertThat(order.pullRecordedEvents()).isEmpty();
    }

    @Test
    void aReconstitutedOrderHasTheStoredStateAndRecomputesItsTotal() {
        OrderId id = OrderId.newId(NOW);

        Order order = Order.reconstitute(id, CUSTOMER, EUR, List.of(line("b-1", 2, "9.99")),
                OrderStatus.CANCELLED, NOW);

        assertThat(order.id()).isEqualTo(id);
        assertThat(order.status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(order.placedAt()).isEqualTo(NOW);
        assertThat(order.total()).isEqualTo(Money.of("19.98", "EUR"));
    }

    @Test
    void aReconstitutedOrderStillKeepsItsInvariants() {
        assertThat(rejected(() -> Order.reconstitute(OrderId.newId(NOW), CUSTOMER, EUR, List.of(),
                OrderStatus.PLACED, NOW)).field()).isEqualTo("items");
    }

    // --- cancelling

    @Test
    void cancellingAPlacedOrderRecordsOrderCancelled() {
        Order order = placedOrder();
        Instant later = NOW.plus(Duration.ofMinutes(5));

        order.cancel("changed my mind", later);

        assertThat(order.status()).isEqualTo(OrderStatus.CANCELLED);
        List<DomainEvent> events = order.pullRecordedEvents();
        assertThat(events).hasSize(1);
        assertThat(events.get(0)).isInstanceOfSatisfying(OrderCancelled.class, cancelled -> {
            assertThat(cancelled.orderId()).isEqualTo(order.id());
            assertThat(cancelled.aggregateId()).isEqualTo(order.id().value());
            assertThat(cancelled.reason()).isEqualTo("changed my mind");
            assertThat(cancelled.occurredAt()).isEqualTo(later);
            assertThat(cancelled.eventId().version()).isEqualTo(7);
            assertThat(UuidV7Timestamps.timestampOf(cancelled.eventId())).isEqualTo(later);
        });
    }

    @Test
    void cancellingTwiceIsRejectedAndRecordsNothingMore() {
        Order order = placedOrder();
        order.cancel("changed my mind", NOW);
        order.pullRecordedEvents();

        assertThatThrownBy(() -> order.cancel("really", NOW))
                .isInstanceOf(OrderCannotBeCancelledException.class)
                .hasMessageContaining(order.id().toString())
                .hasMessageContaining("CANCELLED");
        assertThat(order.pullRecordedEvents()).isEmpty();
    }

    @Test
    void aReconstitutedCancelledOrderCannotBeCancelled() {
        Order order = Order.reconstitute(OrderId.newId(NOW), CUSTOMER, EUR, List.of(line("b-1", 1, "9.99")),
                OrderStatus.CANCELLED, NOW);

        assertThatThrownBy(() -> order.cancel("again", NOW)).isInstanceOf(OrderCannotBeCancelledException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t\n"})
    void cancellingWithoutAReasonIsRejectedAndChangesNothing(String blank) {
        Order order = placedOrder();

        assertThat(rejected(() -> order.cancel(blank, NOW)).field()).isEqualTo("reason");
        assertThat(order.status()).isEqualTo(OrderStatus.PLACED);
        assertThat(order.pullRecordedEvents()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0000b", "\u001b[2J", "bell\u0007", "del\u007f", "c1\u0085"})
    void aReasonWithControlCharactersIsRejectedAndChangesNothing(String reason) {
        Order order = placedOrder();

        InvalidOrderException rejected = rejected(() -> order.cancel(reason, NOW));

        assertThat(rejected.field()).isEqualTo("reason");
        assertThat(rejected.reason()).isEqualTo("must not contain control characters other than tab and line breaks");
        assertThat(order.status()).isEqualTo(OrderStatus.PLACED);
        assertThat(order.pullRecordedEvents()).isEmpty();
    }

    @Test
    void aReasonMayHaveTabsAndLineBreaks() {
        Order order = placedOrder();

        order.cancel("damaged\tin transit\r\nsecond line", NOW);

        assertThat(order.status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void aReasonOfFiveHundredCharactersIsAcceptedButNotOneMore() {
        Order order = placedOrder();

        assertThat(rejected(() -> order.cancel("x".repeat(501), NOW)).field()).isEqualTo("reason");
        order.cancel("x".repeat(500), NOW);

        assertThat(order.status()).isEqualTo(OrderStatus.CANCELLED);
    }

    // --- recorded events

    @Test
    void pullingRecordedEventsEmptiesTheList() {
        Order order = Order.place(CUSTOMER, EUR, List.of(line("b-1", 1, "9.99")), NOW);

        assertThat(order.pullRecordedEvents()).hasSize(1);
        assertThat(order.pullRecordedEvents()).isEmpty();
    }

    @Test
    void recordedEventsComeOldestFirst() {
        Order order = Order.place(CUSTOMER, EUR, List.of(line("b-1", 1, "9.99")), NOW);
        order.cancel("changed my mind", NOW.plusSeconds(1));

        assertThat(order.pullRecordedEvents())
                .hasExactlyElementsOfTypes(OrderPlaced.class, OrderCancelled.class);
    }

    @Test
    void pulledEventsAreACopyThatCannotChangeTheAggregate() {
        Order order = Order.place(CUSTOMER, EUR, List.of(line("b-1", 1, "9.99")), NOW);
        List<DomainEvent> pulled = order.pullRecordedEvents();

        assertThatThrownBy(pulled::clear).isInstanceOf(UnsupportedOperationException.class);
        order.cancel("changed my mind", NOW);
        assertThat(pulled).hasSize(1);
    }

    // --- helpers

    private static Order placedOrder() {
        Order order = Order.place(CUSTOMER, EUR, List.of(line("b-1", 1, "9.99")), NOW);
        order.pullRecordedEvents();
        return order;
    }

    private static OrderLine line(String bookId, int quantity, String eurPrice) {
        return new OrderLine(new BookId(bookId), quantity, Money.of(eurPrice, "EUR"));
    }

    private static List<OrderLine> lines(int count) {
        List<OrderLine> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            lines.add(line("b-" + i, 1, "1.00"));
        }
        return lines;
    }

    private static InvalidOrderException rejected(Runnable action) {
        Throwable thrown = catchThrowable(action::run);
        assertThat(thrown).isInstanceOf(InvalidOrderException.class);
        return (InvalidOrderException) thrown;
    }
}
