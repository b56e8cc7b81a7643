package dev.bookstore.ordering.adapters.messaging.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import dev.bookstore.ordering.domain.shared.Money;
import java.time.Instant;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class OrderEventContractTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant PLACED_AT = Instant.parse("2025-05-01T10:15:30.123Z");
    private static final Map<String, String> TRACE =
            Map.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

    private final OrderEventContract contract = new OrderEventContract("bookstore.ordering");

    @Test
    void orderPlacedBecomesAnOrderPlacedV1MessageOnTheOrderingExchange() {
        OrderPlaced event = orderPlaced("EUR", "9.95", 2, "19.9");

        OutboxMessage message = contract.externalize(event).orElseThrow().toOutboxMessage(event, TRACE);

        assertThat(message.id()).isEqualTo(event.eventId());
        assertThat(message.aggregateType()).isEqualTo("order");
        assertThat(message.aggregateId()).isEqualTo(event.orderId().value().toString());
        assertThat(message.type()).isEqualTo("bookstore.order-placed.v1");
        assertThat(message.exchange()).isEqualTo("bookstore.ordering");
        assertThat(message.routingKey()).isEqualTo("order.placed");
        assertThat(message.headers()).isEqualTo(TRACE);
        assertThat(message.occurredAt()).isEqualTo(PLACED_AT);
        assertThat(message.attempts()).isZero();
    }

    @Test
    void orderPlacedPayloadHasExactlyTheContractFieldsWithAmountsAsStringsInTheCurrencyScale() {
        OrderPlaced event = orderPlaced("EUR", "9.95", 2, "19.9");

        JsonNode body = JSON.readTree(contract.externalize(event).orElseThrow().payload());

        assertThat(body.propertyNames())
                .containsExactly("orderId", "customerId", "total", "currency", "placedAt", "items");
        assertThat(body.get("orderId").stringValue()).isEqualTo(event.orderId().value().toString());
        assertThat(body.get("customerId").stringValue()).isEqualTo(event.customerId().value().toString());
        assertThat(body.get("total").isString()).isTrue();
        assertThat(body.get("total").stringValue()).isEqualTo("39.80");
        assertThat(body.get("currency").stringValue()).isEqualTo("EUR");
        assertThat(body.get("placedAt").stringValue()).isEqualTo("2025-05-01T10:15:30.123Z");
        assertThat(body.get("items").size()).isEqualTo(2);
        JsonNode first = body.get("items").get(0);
        assertThat(first.propertyNames()).containsExactly("bookId", "quantity", "unitPrice");
        assertThat(first.get("bookId").stringValue()).isEqualTo("978-0134494166");
        assertThat(first.get("quantity").isIntegralNumber()).isTrue();
        assertThat(first.get("quantity").intValue()).isEqualTo(2);
        assertThat(first.get("unitPrice").stringValue()).isEqualTo("9.95");
        assertThat(body.get("items").get(1).get("unitPrice").stringValue()).isEqualTo("19.90");
    }

    @Test
    void amountsFollowTheScaleOfTheirCurrency() {
        JsonNode yen = JSON.readTree(contract.externalize(orderPlaced("JPY", "1500", 1, "1000"))
                .orElseThrow().payload());
        JsonNode dinar = JSON.readTree(contract.externalize(orderPlaced("KWD", "1.5", 1, "2"))
                .orElseThrow().payload());

        assertThat(yen.get("total").stringValue()).isEqualTo("2500");
        assertThat(dinar.get("total").stringValue()).isEqualTo("3.500");
        assertThat(dinar.get("items").get(1).get("unitPrice").stringValue()).isEqualTo("2.000");
    }

    @Test
    void orderCancelledBecomesAnOrderCancelledV1Message() {
        UUID orderId = UUID.randomUUID();
        OrderCancelled event = new OrderCancelled(UUID.randomUUID(), PLACED_AT.plusSeconds(60),
                new OrderId(orderId), "changed my mind, \"really\"");

        OutboxMessage message = new OrderEventContract("bookstore.ordering.test").externalize(event)
                .orElseThrow().toOutboxMessage(event, TRACE);

        assertThat(message.id()).isEqualTo(event.eventId());
        assertThat(message.type()).isEqualTo("bookstore.order-cancelled.v1");
        assertThat(message.routingKey()).isEqualTo("order.cancelled");
        assertThat(message.exchange()).isEqualTo("bookstore.ordering.test");
        assertThat(message.aggregateId()).isEqualTo(orderId.toString());
        assertThat(JSON.readTree(message.payload()).propertyNames())
                .containsExactly("orderId", "reason", "cancelledAt");
        JsonNode body = JSON.readTree(message.payload());
        assertThat(body.get("orderId").stringValue()).isEqualTo(orderId.toString());
        assertThat(body.get("reason").stringValue()).isEqualTo("changed my mind, \"really\"");
        assertThat(body.get("cancelledAt").stringValue()).isEqualTo(PLACED_AT.plusSeconds(60).toString());
    }

    @Test
    void eventsOfAnOrderPlacedThroughTheAggregateAreExternalized() {
        Order order = Order.place(new CustomerId(UUID.randomUUID()), Currency.getInstance("EUR"),
                List.of(new OrderLine(new BookId("978-0134494166"), 1, Money.of("42.00", "EUR"))), PLACED_AT);

        List<OutboxMessage> messages = order.pullRecordedEvents().stream()
                .map(event -> contract.externalize(event).orElseThrow().toOutboxMessage(event, Map.of()))
                .toList();

        assertThat(messages).extracting(OutboxMessage::type).containsExactly("bookstore.order-placed.v1");
        assertThat(JSON.readTree(messages.get(0).payload()).get("total").stringValue()).isEqualTo("42.00");
    }

    @Test
    void eventsOutsideTheContractStayInProcess() {
        DomainEvent internal = new DomainEvent() {
            @Override
            public UUID eventId() {
                return UUID.randomUUID();
            }

            @Override
            public Instant occurredAt() {
                return PLACED_AT;
            }

            @Override
            public UUID aggregateId() {
                return UUID.randomUUID();
            }
        };

        assertThat(contract.externalize(internal)).isEmpty();
    }

    /** An order of two books: {@code quantity} of the first at {@code firstPrice}, one of the second. */
    static OrderPlaced orderPlaced(String currency, String firstPrice, int quantity, String secondPrice) {
        OrderLine first = new OrderLine(new BookId("978-0134494166"), quantity, Money.of(firstPrice, currency));
        OrderLine second = new OrderLine(new BookId("978-0321125217"), 1, Money.of(secondPrice, currency));
        Money total = first.lineTotal().plus(second.lineTotal());
        return new OrderPlaced(UUID.randomUUID(), PLACED_AT,
                new OrderId(UUID.randomUUID()),
                new CustomerId(UUID.randomUUID()), total, List.of(first, second));
    }
}
