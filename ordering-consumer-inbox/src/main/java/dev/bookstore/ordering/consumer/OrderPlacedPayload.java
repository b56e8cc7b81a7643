package dev.bookstore.ordering.consumer;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The body of a {@value #TYPE} message, the event contract a consumer receives:
 *
 * <pre>
 * {"orderId":"…","customerId":"…","total":"19.90","currency":"EUR","placedAt":"2025-05-01T10:15:30Z",
 *  "items":[{"bookId":"978-0134494166","quantity":2,"unitPrice":"9.95"}]}
 * </pre>
 *
 * Amounts travel as strings with the currency's minor units and keep that scale ({@code "19.90"} stays
 * {@code 19.90}); times are ISO-8601 instants in UTC. The schema is {@code docs/events/order-placed.v1.schema.json}.
 * Every field is present: {@link #fromJson} refuses a body that misses one.
 */
public record OrderPlacedPayload(
        UUID orderId,
        UUID customerId,
        BigDecimal total,
        Currency currency,
        Instant placedAt,
        List<Item> items) {

    /** The AMQP {@code type} property of the message. */
    public static final String TYPE = "bookstore.order-placed.v1";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public OrderPlacedPayload {
        items = List.copyOf(items);
    }

    /** One line of the order, priced in the order's currency. */
    public record Item(String bookId, int quantity, BigDecimal unitPrice) {
    }

    /**
     * Reads a {@value #TYPE} body.
     *
     * @throws IllegalArgumentException when the body is not JSON or misses or mistypes a field; redelivering such a
     *                                  message cannot help
     */
    public static OrderPlacedPayload fromJson(String json) {
        Objects.requireNonNull(json, "json");
        try {
            JsonNode body = JSON.readTree(json);
            if (body == null || !body.isObject()) {
                throw new IllegalArgumentException("the body is not a JSON object");
            }
            JsonNode itemNodes = required(body, "items");
            if (!itemNodes.isArray()) {
                throw new IllegalArgumentException("field 'items' must be an array");
            }
            List<Item> items = new ArrayList<>();
            for (JsonNode item : itemNodes.values()) {
                items.add(new Item(text(item, "bookId"), integer(item, "quantity"), decimal(item, "unitPrice")));
            }
            return new OrderPlacedPayload(UUID.fromString(text(body, "orderId")),
                    UUID.fromString(text(body, "customerId")), decimal(body, "total"),
                    Currency.getInstance(text(body, "currency")), Instant.parse(text(body, "placedAt")), items);
        } catch (JacksonException | IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalArgumentException("malformed " + TYPE + " payload: " + e.getMessage(), e);
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

    /** Amounts travel as strings: a JSON number may already have been rounded by some producer. */
    private static BigDecimal decimal(JsonNode node, String field) {
        return new BigDecimal(text(node, field));
    }
}
