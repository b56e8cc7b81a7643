package dev.bookstore.ordering.adapters.messaging.outbound;

import dev.bookstore.ordering.application.outbox.ExternalizedEvent;
import dev.bookstore.ordering.application.outbox.EventExternalizer;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import dev.bookstore.ordering.domain.shared.Money;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The wire contract of the ordering service: which domain events leave it, under which type, exchange and routing
 * key, and with which JSON body. Consumers depend on this, not on the domain classes, so it changes only by adding
 * a new versioned type.
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

    /**
     * Reads a {@value #ORDER_PLACED_TYPE} body.
     *
     * @throws InvalidPayloadException when the body is not JSON or misses or mistypes a field
     */
    public static OrderPlacedPayload parseOrderPlaced(String json) {
        return parse(json, ORDER_PLACED_TYPE, body -> {
            List<OrderPlacedPayload.Item> items = new ArrayList<>();
            JsonNode itemNodes = required(body, "items");
            if (!itemNodes.isArray()) {
                throw new IllegalArgumentException("field 'items' must be an array");
            }
            for (JsonNode item : itemNodes.values()) {
                items.add(new OrderPlacedPayload.Item(
                        text(item, "bookId"),
                        integer(item, "quantity"),
                        decimal(item, "unitPrice")));
            }
            return new OrderPlacedPayload(
                    UUID.fromString(text(body, "orderId")),
                    UUID.fromString(text(body, "customerId")),
                    decimal(body, "total"),
                    Currency.getInstance(text(body, "currency")),
                    Instant.parse(text(body, "placedAt")),
                    items);
        });
    }

    private interface Reader<T> {
        T read(JsonNode body);
    }

    private static <T> T parse(String json, String type, Reader<T> reader) {
        Objects.requireNonNull(json, "json");
        try {
            JsonNode body = JSON.readTree(json);
            if (body == null || !body.isObject()) {
                throw new IllegalArgumentException("the body is not a JSON object");
            }
            return reader.read(body);
        } catch (JacksonException | IllegalArgumentException | DateTimeParseException e) {
            throw new InvalidPayloadException("malformed " + type + " payload: " + e.getMessage(), e);
        }
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing field '" + field + "'");
        }
        return value;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = required(node, field);
        if (!value.isString()) {
            throw new IllegalArgumentException("field '" + field + "' must be a string");
        }
        return value.stringValue();
    }

    private static int integer(JsonNode node, String field) {
        JsonNode value = required(node, field);
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new IllegalArgumentException("field '" + field + "' must be an integer");
        }
        return value.intValue();
    }

    /** Amounts travel as strings; a JSON number would already have been rounded by some producer. */
    private static BigDecimal decimal(JsonNode node, String field) {
        return new BigDecimal(text(node, field));
    }
}
