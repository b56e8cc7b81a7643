package dev.bookstore.ordering.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.bookstore.ordering.adapters.messaging.outbound.OrderEventContract;
import dev.bookstore.ordering.adapters.messaging.outbound.OrderingTopology;
import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import dev.bookstore.ordering.domain.shared.Money;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Currency;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The consumer's side of the contract, read from what the ordering service's own contract writes. */
class OrderPlacedPayloadTest {

    private static final Instant PLACED_AT = Instant.parse("2025-05-01T10:15:30.123Z");

    @Test
    void theConsumerReadsEveryFieldTheServiceWritesAmountsInTheCurrencyScale() {
        OrderLine first = new OrderLine(new BookId("978-0134494166"), 3, Money.of("9.95", "EUR"));
        OrderLine second = new OrderLine(new BookId("978-0321125217"), 1, Money.of("0.1", "EUR"));
        OrderPlaced event = new OrderPlaced(UUID.randomUUID(), PLACED_AT, new OrderId(UUID.randomUUID()),
                new CustomerId(UUID.randomUUID()), first.lineTotal().plus(second.lineTotal()), List.of(first, second));

        OrderPlacedPayload payload = OrderPlacedPayload.fromJson(serviceWrites(event));

        assertThat(payload.orderId()).isEqualTo(event.orderId().value());
        assertThat(payload.customerId()).isEqualTo(event.customerId().value());
        assertThat(payload.total()).isEqualTo(new BigDecimal("29.95"));
        assertThat(payload.currency()).isEqualTo(Currency.getInstance("EUR"));
        assertThat(payload.placedAt()).isEqualTo(PLACED_AT);
        assertThat(payload.items()).containsExactly(
                new OrderPlacedPayload.Item("978-0134494166", 3, new BigDecimal("9.95")),
                new OrderPlacedPayload.Item("978-0321125217", 1, new BigDecimal("0.10")));
    }

    @Test
    void theTypeAndBindingAreTheOnesTheServicePublishesWith() {
        assertThat(OrderPlacedPayload.TYPE).isEqualTo(OrderEventContract.ORDER_PLACED_TYPE);
        assertThat(InboxQueue.ALL_ORDER_EVENTS).isEqualTo(OrderingTopology.ALL_ORDER_EVENTS);
    }

    @Test
    void aBodyThatBreaksTheContractIsRejectedWithTheReason() {
        OrderLine line = new OrderLine(new BookId("978-0134494166"), 1, Money.of("3.00", "EUR"));
        String valid = serviceWrites(new OrderPlaced(UUID.randomUUID(), PLACED_AT, new OrderId(UUID.randomUUID()),
                new CustomerId(UUID.randomUUID()), line.lineTotal(), List.of(line)));

        assertThatIllegalArgumentException().isThrownBy(() -> OrderPlacedPayload.fromJson("not json"))
                .withMessageStartingWith("malformed bookstore.order-placed.v1 payload");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> OrderPlacedPayload.fromJson(valid.replace("\"total\"", "\"sum\"")))
                .withMessageContaining("'total'");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> OrderPlacedPayload.fromJson(valid.replace("\"total\":\"3.00\"", "\"total\":3.00")))
                .withMessageContaining("must be a string");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> OrderPlacedPayload.fromJson(valid.replace("\"quantity\":1", "\"quantity\":1.5")))
                .withMessageContaining("must be an integer");
        assertThatIllegalArgumentException().isThrownBy(() -> OrderPlacedPayload.fromJson("[]"))
                .withMessageContaining("not a JSON object");
        assertThat(OrderPlacedPayload.fromJson(valid).total()).as("the valid body itself").isEqualTo("3.00");
    }

    private static String serviceWrites(OrderPlaced event) {
        return new OrderEventContract(InboxQueue.ORDER_EVENTS_EXCHANGE).externalize(event).orElseThrow().payload();
    }
}
