package dev.bookstore.ordering.adapters.messaging.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import dev.bookstore.ordering.domain.shared.Money;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The v1 events against their published JSON Schemas ({@code docs/events/*.schema.json}, draft 2020-12): every
 * payload {@link OrderEventContract} writes is valid and carries nothing the schema does not declare, and each
 * schema is still compatible with the one released ({@code src/test/resources/event-schemas/released}).
 */
class EventSchemaTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Instant AT = Instant.parse("2025-05-01T10:15:30.123Z");
    private static final List<String> TYPES =
            List.of(OrderEventContract.ORDER_PLACED_TYPE, OrderEventContract.ORDER_CANCELLED_TYPE);

    private final OrderEventContract contract = new OrderEventContract("bookstore.ordering");

    @Test
    void everyOrderPlacedPayloadTheContractWritesIsValidAgainstItsSchema() {
        List<DomainEvent> events = List.of(
                OrderEventContractTest.orderPlaced("EUR", "9.95", 2, "19.9"),
                OrderEventContractTest.orderPlaced("JPY", "1500", 1, "1000"),
                OrderEventContractTest.orderPlaced("KWD", "1.5", 1000, "0.001"),
                largestOrder());

        for (DomainEvent event : events) {
            assertValid(OrderEventContract.ORDER_PLACED_TYPE, payload(event));
        }
    }

    @Test
    void everyOrderCancelledPayloadTheContractWritesIsValidAgainstItsSchema() {
        for (String reason : List.of("changed my mind", "\"quoted\",\ttabbed\r\nand on two lines, ünïcødé ✓",
                "x".repeat(Order.MAX_REASON_LENGTH))) {
            OrderCancelled event = new OrderCancelled(UUID.randomUUID(), AT, new OrderId(UUID.randomUUID()), reason);

            assertValid(OrderEventContract.ORDER_CANCELLED_TYPE, payload(event));
        }
    }

    @Test
    void theSchemasRejectPayloadsThatBreakTheContract() {
        String valid = payload(OrderEventContractTest.orderPlaced("EUR", "9.95", 2, "19.9"));
        String cancelled = payload(new OrderCancelled(UUID.randomUUID(), AT, new OrderId(UUID.randomUUID()), "no"));

        assertThat(errors(OrderEventContract.ORDER_PLACED_TYPE, valid.replace("\"total\"", "\"sum\""))).isNotEmpty();
        assertThat(errors(OrderEventContract.ORDER_PLACED_TYPE, valid.replace("\"39.80\"", "39.80"))).isNotEmpty();
        assertThat(errors(OrderEventContract.ORDER_PLACED_TYPE, valid.replace("\"quantity\":2", "\"quantity\":0")))
                .isNotEmpty();
        assertThat(errors(OrderEventContract.ORDER_CANCELLED_TYPE,
                cancelled.replace("\"cancelledAt\":\"2025-05-01T10:15:30.123Z\"", "\"cancelledAt\":\"yesterday\"")))
                .as("formats are asserted").isNotEmpty();
        assertThat(errors(OrderEventContract.ORDER_CANCELLED_TYPE,
                cancelled.replaceFirst("\"orderId\":\"[^\"]+\"", "\"orderId\":\"42\""))).isNotEmpty();
    }

    @Test
    void everyTypeTheContractSendsHasASchemaTitledWithItsType() {
        for (String type : TYPES) {
            JsonNode schema = schemaJson("current", type);

            assertThat(schema.get("title").asString()).isEqualTo(type);
            assertThat(schema.get("$schema").asString()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        }
    }

    @Test
    void thePublishedSchemasAreCompatibleWithTheReleasedOnes() {
        for (String type : TYPES) {
            List<String> breaking = SchemaCompatibility.breakingChanges(schemaJson("released", type),
                    schemaJson("current", type));

            assertThat(breaking).as("""
                    docs/events/%s changes the released contract of %s in a way that breaks its consumers. \
                    Publish a new type (v2) beside it instead. A compatible change (an optional property more) is \
                    accepted by copying the file over adapters-messaging/src/test/resources/event-schemas/released/.""",
                    file(type), type).isEmpty();
        }
    }

    private void assertValid(String type, String payload) {
        assertThat(errors(type, payload)).as("%s payload %s", type, payload).isEmpty();
        assertThat(undeclared(JSON.readTree(payload), schemaJson("current", type), "$"))
                .as("properties of %s not declared in docs/events/%s", type, file(type)).isEmpty();
    }

    private static List<String> errors(String type, String payload) {
        Schema schema = SCHEMAS.getSchema(schemaJson("current", type));
        List<Error> errors = schema.validate(JSON.readTree(payload),
                context -> context.executionConfig(config -> config.formatAssertionsEnabled(true)));
        return errors.stream().map(Error::toString).toList();
    }

    /** Properties in the payload that the schema does not name: the schema must tell consumers about each. */
    private static List<String> undeclared(JsonNode payload, JsonNode schema, String at) {
        List<String> found = new ArrayList<>();
        if (payload.isObject()) {
            JsonNode properties = schema.get("properties");
            for (String name : payload.propertyNames()) {
                if (properties == null || !properties.has(name)) {
                    found.add(at + "." + name);
                } else {
                    found.addAll(undeclared(payload.get(name), properties.get(name), at + "." + name));
                }
            }
        } else if (payload.isArray() && schema.has("items")) {
            payload.values().forEach(item -> found.addAll(undeclared(item, schema.get("items"), at + "[]")));
        }
        return found;
    }

    private String payload(DomainEvent event) {
        return contract.externalize(event).orElseThrow().payload();
    }

    /** The most an order may be: {@value Order#MAX_LINES} lines of the most books each. */
    private static DomainEvent largestOrder() {
        List<OrderLine> lines = IntStream.range(0, Order.MAX_LINES)
                .mapToObj(i -> new OrderLine(new BookId("book-" + i), OrderLine.MAX_QUANTITY,
                        Money.of("9999999999.99", "EUR")))
                .toList();
        Order order = Order.place(new CustomerId(UUID.randomUUID()), Currency.getInstance("EUR"), lines, AT);
        return order.pullRecordedEvents().get(0);
    }

    private static String file(String type) {
        return type.substring("bookstore.".length()) + ".schema.json";
    }

    private static JsonNode schemaJson(String which, String type) {
        String resource = "/event-schemas/" + which + "/" + file(type);
        try (InputStream in = EventSchemaTest.class.getResourceAsStream(resource)) {
            assertThat(in).as("classpath resource %s", resource).isNotNull();
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
