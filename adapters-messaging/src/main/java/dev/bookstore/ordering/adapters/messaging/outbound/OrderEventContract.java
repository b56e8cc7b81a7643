package dev.bookstore.ordering.adapters.messaging.outbound;

import dev.bookstore.ordering.application.outbox.EventExternalizer;
import dev.bookstore.ordering.application.outbox.ExternalizedEvent;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import dev.bookstore.ordering.domain.shared.Money;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The wire contract of the ordering service: which domain events leave it, under which type, exchange and routing
 * key, and with which JSON body ({@code docs/events/*.schema.json}). It changes only by adding a new versioned type;
 * consumers read it with {@code ordering-consumer-inbox}, never with the domain classes.
 *
 * <pre>
 * bookstore.order-placed.v1    routing key order.placed
 *   {"orderId":"…","customerId":"…","total":"19.90","currency":"EUR","placedAt":"2025-05-01T10:15:30Z",
 *    "items":[{"bookId":"978-0134494166","quantity":2,"unitPrice":"9.95"}]}
 * bookstore.order-cancelled.v1 routing key order.cancelled
 *   {"orderId":"…","reason":"…","cancelledAt":"2025-05-01T11:00:00Z"}
 * </pre>
 *
 * <p>Amounts are JSON strings with exactly the currency's minor units, so no consumer rounds them through a
 * binary floating point number; times are ISO-8601 instants in UTC.
 */
public final class OrderEventContract implements EventExternalizer {

    public static final String AGGREGATE_TYPE = "order";
    public static final String ORDER_PLACED_TYPE = "bookstore.order-placed.v1";
    public static final String ORDER_PLACED_ROUTING_KEY = "order.placed";
    public static final String ORDER_CANCELLED_TYPE = "bookstore.order-cancelled.v1";
    public static final String ORDER_CANCELLED_ROUTING_KEY = "order.cancelled";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String exchange;

    /** @param exchange the topic exchange the events are published to (tests use one of their own) */
    public OrderEventContract(String exchange) {
        this.exchange = Objects.requireNonNull(exchange, "exchange");
    }

    public String exchange() {
        return exchange;
    }

    @Override
    public Optional<ExternalizedEvent> externalize(DomainEvent event) {
        Objects.requireNonNull(event, "event");
        if (event instanceof OrderPlaced placed) {
            return Optional.of(new ExternalizedEvent(AGGREGATE_TYPE, ORDER_PLACED_TYPE, exchange,
                    ORDER_PLACED_ROUTING_KEY, orderPlacedJson(placed)));
        }
        if (event instanceof OrderCancelled cancelled) {
            return Optional.of(new ExternalizedEvent(AGGREGATE_TYPE, ORDER_CANCELLED_TYPE, exchange,
                    ORDER_CANCELLED_ROUTING_KEY, orderCancelledJson(cancelled)));
        }
        return Optional.empty();
    }

    private static String orderPlacedJson(OrderPlaced event) {
        ObjectNode body = JSON.createObjectNode();
        body.put("orderId", event.orderId().value().toString());
        body.put("customerId", event.customerId().value().toString());
        body.put("total", amount(event.total()));
        body.put("currency", event.total().currency().getCurrencyCode());
        body.put("placedAt", event.occurredAt().toString());
        ArrayNode items = body.putArray("items");
        for (OrderLine line : event.lines()) {
            items.addObject()
                    .put("bookId", line.bookId().value())
                    .put("quantity", line.quantity())
                    .put("unitPrice", amount(line.unitPrice()));
        }
        return JSON.writeValueAsString(body);
    }

    private static String orderCancelledJson(OrderCancelled event) {
        ObjectNode body = JSON.createObjectNode();
        body.put("orderId", event.orderId().value().toString());
        body.put("reason", event.reason());
        body.put("cancelledAt", event.occurredAt().toString());
        return JSON.writeValueAsString(body);
    }

    /** {@link Money} already carries the currency's scale; plain notation keeps "1E+3" off the wire. */
    private static String amount(Money money) {
        return money.amount().toPlainString();
    }
}
