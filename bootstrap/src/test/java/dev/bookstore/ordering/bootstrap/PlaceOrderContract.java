package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.server.PathContainer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The write path on each engine (PostgreSQL, MariaDB), one subclass per engine with a database of its own: one POST,
 * one order, one outbox row, one transaction. The relay is off here so the rows stay to be looked at. The statements
 * an order costs (written behind as one text on PostgreSQL, one by one on MariaDB) and a failure injected into its
 * transaction (by a trigger in each engine's language) are tested in each engine's subclass.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Import(PlaceOrderContract.RecordStatements.class)
abstract class PlaceOrderContract {

    /** The engine of the subclass's database. */
    protected abstract TestEngine engine();

    /** The subclass's database, made for the class; the service runs on it. */
    protected abstract TestDatabase database();

    /** How many sessions on {@link #database()} wait for a row lock now. */
    protected abstract long sessionsWaitingForARowLock();

    /** The service's properties on {@code database}, for a subclass's {@code @DynamicPropertySource}. */
    static void register(DynamicPropertyRegistry registry, TestDatabase database) {
        WritePathService.register(registry, database);
        // The database is dropped after the class while the context still exists: no job may be using it then.
        registry.add("ordering.idempotency.retention-interval", () -> "1h");
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    StatementRecorder statements;

    @Autowired
    DispatcherServlet dispatcherServlet;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping apiMappings;

    /** The statement recorder, by the class's {@code @Import} (no nested configuration for subclasses to inherit). */
    static class RecordStatements {

        @Bean
        static StatementRecorder statementRecorder() {
            return new StatementRecorder();
        }
    }

    HttpJson http;

    @BeforeEach
    void cleanTables() {
        http = new HttpJson(port);
        jdbc.update("DELETE FROM outbox_message");
        jdbc.update("DELETE FROM orders");
    }

    @Test
    void placingAnOrderStoresTheOrderAndExactlyOneOutboxRowWithTheWireContract() {
        UUID customer = UUID.randomUUID();
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";

        HttpJson.Response response = http.postJson("/orders", HttpJson.orderJson(customer.toString(), 2),
                "traceparent", "00-" + traceId + "-00f067aa0ba902b7-01");

        assertThat(response.status()).isEqualTo(201);
        JsonNode body = response.json();
        String orderId = body.get("id").asString();
        assertThat(response.header("Location")).isEqualTo("/orders/" + orderId);
        assertThat(body.get("total").asString()).isEqualTo("39.80");
        assertThat(body.get("currency").asString()).isEqualTo("EUR");
        assertThat(body.get("status").asString()).isEqualTo("PLACED");

        assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Long.class)).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM order_line WHERE order_id = ?", Long.class,
                id(orderId))).isEqualTo(2);
        // id, payload and headers as their text (a uuid, json or jsonb as the engine has it)
        Map<String, Object> row = jdbc.queryForObject("SELECT id, aggregate_type, aggregate_id, type, exchange, "
                + "routing_key, payload, headers, status, attempts, published_at FROM outbox_message", (rs, n) -> {
                    Map<String, Object> columns = new HashMap<>();
                    for (String text : List.of("id", "aggregate_type", "aggregate_id", "type", "exchange",
                            "routing_key", "payload", "headers", "status")) {
                        columns.put(text, rs.getString(text));
                    }
                    columns.put("attempts", rs.getInt("attempts"));
                    columns.put("published_at", rs.getObject("published_at"));
                    return columns;
                });
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message", Long.class)).isEqualTo(1);
        assertThat(UUID.fromString((String) row.get("id")).version()).isEqualTo(7);
        assertThat(row).containsEntry("aggregate_type", "order").containsEntry("aggregate_id", orderId)
                .containsEntry("type", "bookstore.order-placed.v1").containsEntry("exchange", "bookstore.ordering")
                .containsEntry("routing_key", "order.placed").containsEntry("status", "PENDING")
                .containsEntry("attempts", 0).containsEntry("published_at", null);

        JsonNode payload = JsonMapper.builder().build().readTree((String) row.get("payload"));
        assertThat(payload.get("orderId").asString()).isEqualTo(orderId);
        assertThat(payload.get("customerId").asString()).isEqualTo(customer.toString());
        assertThat(payload.get("total").asString()).isEqualTo("39.80");
        assertThat(payload.get("currency").asString()).isEqualTo("EUR");
        assertThat(payload.get("placedAt").asString()).isNotBlank();
        assertThat(payload.get("items")).hasSize(2);
        assertThat(payload.get("items").get(0).get("quantity").asInt()).isEqualTo(2);
        assertThat(payload.get("items").get(0).get("unitPrice").asString()).isEqualTo("9.95");

        JsonNode headers = JsonMapper.builder().build().readTree((String) row.get("headers"));
        assertThat(headers.get("traceparent").asString()).startsWith("00-" + traceId + "-");

        HttpJson.Response read = http.get("/orders/" + orderId);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("items")).hasSize(2);
        // /outbox/stats is the snapshot counted every ordering.outbox.stats.refresh-interval
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(http.get("/outbox/stats").json().get("pending").asLong()).isEqualTo(1));
    }

    /** Held and written once ({@code SingleWriteResponseFilter}): a length, no chunks; a refusal too. */
    @Test
    void anAnswerIsSentWithItsLengthNotInChunks() {
        HttpJson.Response placed = http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 2));
        HttpJson.Response refused = http.anonymous().postJson("/orders",
                HttpJson.orderJson(UUID.randomUUID().toString(), 1));

        assertThat(placed.status()).isEqualTo(201);
        assertThat(refused.status()).isEqualTo(401);
        for (HttpJson.Response response : List.of(placed, refused)) {
            assertThat(response.header("Transfer-Encoding")).isNull();
            assertThat(response.header("Content-Length")).isEqualTo(
                    String.valueOf(response.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length));
            assertThat(response.json().isObject()).isTrue();
        }
    }

    @Test
    void listingTheNewestOrdersIsOneQueryThatBringsTheirLines() {
        List<String> placed = new ArrayList<>();
        for (int lines = 1; lines <= 3; lines++) {
            placed.add(http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), lines))
                    .json().get("id").asString());
        }

        statements.start();
        HttpJson.Response response = http.get("/orders?limit=2");
        List<String> sent = statements.stop();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().findValuesAsString("id")).containsExactly(placed.get(2), placed.get(1));
        assertThat(response.json().get(0).get("items")).hasSize(3);
        assertThat(response.json().get(1).get("items")).hasSize(2);
        assertThat(sent).filteredOn(sql -> !sql.equals("COMMIT")).singleElement().asString()
                .startsWith("SELECT ").contains("JOIN order_line");
    }

    @Test
    void readingAnOrderIsOneQueryAndCancellingItOneQueryAndOneUpdateOfItsVersion() {
        String orderId = http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 2))
                .json().get("id").asString();

        statements.start();
        HttpJson.Response read = http.get("/orders/" + orderId);
        List<String> sentToRead = statements.stop();
        statements.start();
        HttpJson.Response cancelled = http.postJson("/orders/" + orderId + "/cancel",
                "{\"reason\":\"changed my mind\"}");
        List<String> sentToCancel = statements.stop();

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("items")).hasSize(2);
        assertThat(sentToRead).satisfiesExactly(
                sql -> assertThat(sql).startsWith("SELECT ").contains("JOIN order_line").contains("WHERE o.id = ?"),
                sql -> assertThat(sql).isEqualTo("COMMIT"));
        assertThat(cancelled.status()).isEqualTo(200);
        // The controller reads the order first (another customer's is a 404, as a missing one), then the cancel's
        // own transaction reads it again with its version and changes it only while it still has that version; then
        // Spring Modulith stores the publication of OrderCancelled, and the outbox row is written behind.
        assertThat(sentToCancel).satisfiesExactly(
                sql -> assertThat(sql).isEqualTo(sentToRead.get(0)),
                sql -> assertThat(sql).isEqualTo("COMMIT"),
                sql -> assertThat(sql).isEqualTo(sentToRead.get(0)),
                sql -> assertThat(sql).startsWith("UPDATE orders SET status = ?, version = version + 1")
                        .endsWith("AND version = ?"),
                publication -> assertThat(publication).startsWithIgnoringCase("INSERT INTO event_publication "),
                outbox -> assertThat(outbox).startsWith("INSERT INTO outbox_message "),
                sql -> assertThat(sql).isEqualTo("COMMIT"));
        assertThat(jdbc.queryForObject("SELECT version FROM orders WHERE id = ?", Long.class, id(orderId)))
                .isEqualTo(1);
    }

    @Test
    void theApisRequestMappingsAreLookedUpBeforeTheActuatorsAndNeverMatchAnActuatorPath() {
        List<HandlerMapping> mappings = dispatcherServlet.getHandlerMappings();

        // POST /orders is matched by the first mapping asked; the actuator's is not searched (and searched again
        // for a partial match) first.
        assertThat(mappings).first().isSameAs(apiMappings);
        assertThat(mappings).anySatisfy(mapping -> assertThat(mapping.getClass().getSimpleName())
                .isEqualTo("WebMvcEndpointHandlerMapping"));
        PathContainer actuatorPath = PathContainer.parsePath("/actuator/health/readiness");
        assertThat(apiMappings.getHandlerMethods().keySet())
                .flatExtracting(info -> info.getPathPatternsCondition().getPatterns())
                .isNotEmpty()
                .noneMatch(pattern -> pattern.matches(actuatorPath) || pattern.matchStartOfPath(actuatorPath) != null);
        assertThat(http.get("/actuator/health/readiness").status()).isEqualTo(200);
    }

    static Stream<Arguments> badRequests() {
        String customer = UUID.randomUUID().toString();
        String item = "{\"bookId\":\"978-0134494166\",\"quantity\":1,\"unitPrice\":\"9.95\"}";
        return Stream.of(
                Arguments.of("malformed JSON", "{\"customerId\":", null),
                Arguments.of("customerId of the wrong type", "{\"customerId\":42,\"currency\":\"EUR\",\"items\":["
                        + item + "]}", "customerId"),
                Arguments.of("missing customerId", "{\"currency\":\"EUR\",\"items\":[" + item + "]}", "customerId"),
                Arguments.of("missing currency", "{\"customerId\":\"" + customer + "\",\"items\":[" + item + "]}",
                        "currency"),
                Arguments.of("unknown currency", body(customer, "XYZ", item), "currency"),
                Arguments.of("no items", body(customer, "EUR", ""), "items"),
                Arguments.of("zero quantity", body(customer, "EUR", item.replace("\"quantity\":1",
                        "\"quantity\":0")), "items[0].quantity"),
                Arguments.of("negative quantity", body(customer, "EUR", item.replace("\"quantity\":1",
                        "\"quantity\":-3")), "items[0].quantity"),
                Arguments.of("huge quantity", body(customer, "EUR", item.replace("\"quantity\":1",
                        "\"quantity\":99999999999")), "items[0].quantity"),
                Arguments.of("quantity as text", body(customer, "EUR", item.replace("\"quantity\":1",
                        "\"quantity\":\"many\"")), "items[0].quantity"),
                Arguments.of("too many decimals", body(customer, "EUR", item.replace("9.95", "9.999")),
                        "items[0].unitPrice"),
                Arguments.of("zero price", body(customer, "EUR", item.replace("9.95", "0")), "items[0].unitPrice"),
                Arguments.of("missing bookId", body(customer, "EUR", item.replace("\"bookId\":\"978-0134494166\",",
                        "")), "items[0].bookId"),
                Arguments.of("more than 100 items", HttpJson.orderJson(customer, 101), "items"),
                // numbers are what the API says they are
                Arguments.of("fractional quantity", withQuantity(customer, "1.5"), "items[0].quantity"),
                Arguments.of("quantity with a zero fraction", withQuantity(customer, "1.0"), "items[0].quantity"),
                Arguments.of("quantity with an exponent", withQuantity(customer, "1e0"), "items[0].quantity"),
                Arguments.of("quantity as a numeric string", withQuantity(customer, "\"2\""), "items[0].quantity"),
                Arguments.of("quantity of 2^31", withQuantity(customer, "2147483648"), "items[0].quantity"),
                Arguments.of("quantity of -0", withQuantity(customer, "-0"), "items[0].quantity"),
                Arguments.of("quantity true", withQuantity(customer, "true"), "items[0].quantity"),
                Arguments.of("price 1e400", withPrice(customer, "1e400"), "items[0].unitPrice"),
                Arguments.of("price 1e-400", withPrice(customer, "1e-400"), "items[0].unitPrice"),
                Arguments.of("price \"1e400\"", withPrice(customer, "\"1e400\""), "items[0].unitPrice"),
                Arguments.of("price 1e999999999", withPrice(customer, "1e999999999"), "items[0].unitPrice"),
                Arguments.of("price 1e-999999999", withPrice(customer, "1e-999999999"), "items[0].unitPrice"),
                Arguments.of("price 1e99999999999", withPrice(customer, "1e99999999999"), "items[0].unitPrice"),
                Arguments.of("price of eleven digits", withPrice(customer, "\"10000000000\""), "items[0].unitPrice"),
                Arguments.of("price of 71 digits", withPrice(customer, "1" + "0".repeat(70)), "items[0].unitPrice"),
                Arguments.of("price string of 5000 digits", withPrice(customer, "\"" + "9".repeat(5000) + "\""),
                        "items[0].unitPrice"),
                // refused while tokenizing, where Jackson knows the object but not yet the key
                Arguments.of("price number of 5000 digits", withPrice(customer, "9".repeat(5000)), "items[0]"),
                Arguments.of("price -0", withPrice(customer, "-0"), "items[0].unitPrice"),
                // one key twice: the last one does not silently win
                Arguments.of("quantity twice", body(customer, "EUR", item.replace("\"quantity\":1",
                        "\"quantity\":1,\"quantity\":1000")), "items[0].quantity"),
                Arguments.of("customerId twice", "{\"customerId\":\"" + customer + "\","
                        + body(customer, "EUR", item).substring(1), "customerId"),
                Arguments.of("nesting 1000 deep", "{\"customerId\":\"" + customer + "\",\"padding\":"
                        + "[".repeat(1000) + "]".repeat(1000) + "}", null),
                Arguments.of("JSON null", "null", null),
                Arguments.of("a JSON array", "[]", null));
    }

    private static String withQuantity(String customer, String quantity) {
        return body(customer, "EUR", "{\"bookId\":\"978-0134494166\",\"quantity\":" + quantity
                + ",\"unitPrice\":\"39.90\"}");
    }

    private static String withPrice(String customer, String price) {
        return body(customer, "EUR", "{\"bookId\":\"978-0134494166\",\"quantity\":2,\"unitPrice\":" + price + "}");
    }

    private static String body(String customer, String currency, String items) {
        return "{\"customerId\":\"" + customer + "\",\"currency\":\"" + currency + "\",\"items\":[" + items + "]}";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void aBadRequestGetsProblemDetailsNamingTheFieldAndChangesNothing(String why, String json, String field) {
        HttpJson.Response response = http.postJson("/orders", json);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("title").asString()).isNotBlank();
        if (field != null) {
            assertThat(problem.get("errors").findValuesAsString("field")).containsExactly(field);
        }
        assertThat(response.body()).doesNotContain("\tat ", "trace");
        assertNothingWritten();
    }

    /** docs/decisions/01: a price may be a JSON number, read exactly from its text, and is described so. */
    @Test
    void aPriceAsAJsonNumberIsReadFromItsTextExactlyAndAFloatingPointLeftoverIsRefused() {
        String customer = UUID.randomUUID().toString();

        HttpJson.Response placed = http.postJson("/orders", body(customer, "EUR",
                "{\"bookId\":\"978-0134494166\",\"quantity\":3,\"unitPrice\":19.99}"));
        assertThat(placed.status()).isEqualTo(201);
        assertThat(placed.json().get("total").asString()).isEqualTo("59.97");
        assertThat(placed.json().get("items").get(0).get("unitPrice").asString()).isEqualTo("19.99");

        HttpJson.Response refused = http.postJson("/orders", withPrice(customer, "19.900000000000002"));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("errors").findValuesAsString("field")).containsExactly("items[0].unitPrice");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Long.class)).isEqualTo(1);
    }

    @Test
    void aPriceWithANineDigitExponentIsAnsweredAtOnce() {
        http.postJson("/orders", withPrice(UUID.randomUUID().toString(), "1e-400"));

        for (String price : List.of("1e999999999", "-1e999999999", "\"1e999999999\"", "1e-999999999")) {
            long started = System.nanoTime();
            HttpJson.Response response = http.postJson("/orders", withPrice(UUID.randomUUID().toString(), price));
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(response.status()).as(price).isEqualTo(400);
            assertThat(took).as(price).isLessThan(Duration.ofSeconds(2));
        }
        assertNothingWritten();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "-2147483648", "101", "2147483647"})
    void aLimitOutOfOneToOneHundredIs400NamingTheLimit(String limit) {
        HttpJson.Response response = http.get("/orders?limit=" + limit);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode error = response.json().get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo("limit");
        assertThat(error.get("message").asString()).isEqualTo("must be between 1 and 100, got " + limit);
        assertThat(response.json().get("errors")).hasSize(1);
    }

    @Test
    void aLimitOfOneAndOfOneHundredAreAnswered() {
        assertThat(http.get("/orders?limit=1").status()).isEqualTo(200);
        assertThat(http.get("/orders?limit=100").status()).isEqualTo(200);
        assertThat(http.get("/orders").status()).isEqualTo(200);
    }

    @Test
    void twoCancelsRacingForOneOrderAnswer200AndA409ProblemAndCancelItOnce() throws Exception {
        String orderId = http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 1))
                .json().get("id").asString();
        String cancel = "/orders/" + orderId + "/cancel";

        // The test holds the order's row lock. Both cancels read the order (a read waits for no row lock), then
        // both stop at their UPDATE ... WHERE version = ?. Released, one commits; the other finds the version it
        // read gone: that is the race, made to happen every time.
        CompletableFuture<HttpJson.Response> first;
        CompletableFuture<HttpJson.Response> second;
        try (Connection blocker = database().connect()) {
            blocker.setAutoCommit(false);
            try (PreparedStatement lock = blocker.prepareStatement("SELECT id FROM orders WHERE id = ? FOR UPDATE")) {
                lock.setObject(1, id(orderId));
                lock.executeQuery().close();
            }
            first = CompletableFuture.supplyAsync(() -> http.postJson(cancel, "{\"reason\":\"first\"}"));
            second = CompletableFuture.supplyAsync(() -> http.postJson(cancel, "{\"reason\":\"second\"}"));
            await().atMost(Duration.ofSeconds(20)).until(() -> sessionsWaitingForARowLock() == 2);
            blocker.rollback();
        }
        List<HttpJson.Response> responses = List.of(first.get(20, TimeUnit.SECONDS),
                second.get(20, TimeUnit.SECONDS));

        assertThat(responses).extracting(HttpJson.Response::status).containsExactlyInAnyOrder(200, 409);
        HttpJson.Response conflict = responses.stream().filter(r -> r.status() == 409).findFirst().orElseThrow();
        assertThat(conflict.header("Content-Type")).startsWith("application/problem+json");
        assertThat(conflict.json().get("title").asString()).isEqualTo("Concurrent change");
        assertThat(conflict.body()).doesNotContain("Exception", "\tat ");
        assertThat(jdbc.queryForObject("SELECT status FROM orders WHERE id = ?", String.class, id(orderId)))
                .isEqualTo("CANCELLED");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message WHERE type = ?", Long.class,
                "bookstore.order-cancelled.v1")).isEqualTo(1);

        // Cancelled once and for all: a third cancel is the ordinary 409 of an order already cancelled.
        HttpJson.Response third = http.postJson(cancel, "{\"reason\":\"third\"}");
        assertThat(third.status()).isEqualTo(409);
        assertThat(third.json().get("title").asString()).isEqualTo("Order cannot be cancelled");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"reason\":\"a\\u0000b\"}", "{\"reason\":\"\\u001b[2J\"}", "{\"reason\":42}",
            "{\"reason\":\"x\",\"reason\":\"y\"}", "{\"reason\":[]}", "null", "{}"})
    void aHostileCancelBodyIs400AndLeavesTheOrderPlaced(String body) {
        String orderId = http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 1))
                .json().get("id").asString();

        HttpJson.Response response = http.postJson("/orders/" + orderId + "/cancel", body);

        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(jdbc.queryForObject("SELECT status FROM orders WHERE id = ?", String.class, id(orderId)))
                .isEqualTo("PLACED");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message", Long.class)).isEqualTo(1);
    }

    @Test
    void aBodyOver64KilobytesIsRefusedWith413() {
        String huge = HttpJson.orderJson(UUID.randomUUID().toString(), 1)
                .replace("\"currency\"", "\"padding\":\"" + "x".repeat(70 * 1024) + "\",\"currency\"");

        HttpJson.Response response = http.postJson("/orders", huge);

        assertThat(response.status()).isEqualTo(413);
        assertThat(response.json().get("title").asString()).isEqualTo("Request body too large");
        assertNothingWritten();
    }

    @Test
    void aWrongContentTypeIsRefusedWith415() {
        HttpJson.Response response = http.post("/orders", "text/plain",
                HttpJson.orderJson(UUID.randomUUID().toString(), 1));

        assertThat(response.status()).isEqualTo(415);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertNothingWritten();
    }

    @Test
    void anUnknownOrderIs404ProblemDetailsAndAMalformedIdIs400() {
        HttpJson.Response unknown = http.get("/orders/" + UUID.randomUUID());
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().get("title").asString()).isEqualTo("Order not found");

        HttpJson.Response malformed = http.get("/orders/not-a-uuid");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().get("errors").findValuesAsString("field")).containsExactly("id");
    }

    /** An id as a statement parameter on this engine. */
    Object id(String id) {
        return engine().database().id(UUID.fromString(id));
    }

    void assertNothingWritten() {
        assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Long.class)).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message", Long.class)).isZero();
    }
}
