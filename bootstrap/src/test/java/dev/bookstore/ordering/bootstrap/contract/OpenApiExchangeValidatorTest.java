package dev.bookstore.ordering.bootstrap.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The validator every web test's traffic goes through, against the checked-in description: it passes what agrees
 * with the description and fails, with a reason, deliberately wrong responses and accepted bad requests.
 */
class OpenApiExchangeValidatorTest {

    private static final String ORDER_ID = "01a2434b-d2cf-784e-9f3e-439c2ba21b55";
    private static final String CUSTOMER_ID = "0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60";
    private static final String ORDER = """
            {"id":"%s","customerId":"%s","total":"79.80","currency":"EUR","status":"PLACED",
             "placedAt":"2026-12-04T23:02:52.367430Z",
             "items":[{"bookId":"978-0134494166","quantity":2,"unitPrice":"39.90"}]}""".formatted(ORDER_ID,
            CUSTOMER_ID);
    private static final String ORDER_REQUEST = """
            {"customerId":"%s","currency":"EUR",
             "items":[{"bookId":"978-0134494166","quantity":2,"unitPrice":"39.90"}]}"""
            .formatted(CUSTOMER_ID);
    private static final Map<String, List<String>> TOKEN = Map.of("Authorization", List.of("Bearer t"));
    private static final Map<String, List<String>> JSON = Map.of("Content-Type", List.of("application/json"));
    private static final Map<String, List<String>> PROBLEM = Map.of("Content-Type",
            List.of("application/problem+json"));

    private final OpenApiExchangeValidator validator = checkedIn();

    @Test
    void aResponseThatMatchesItsDescriptionPasses() {
        assertThat(validator.violations(get("/orders/" + ORDER_ID, 200, JSON, ORDER))).isEmpty();
        assertThat(validator.violations(get("/orders?limit=1", 200, JSON, "[" + ORDER + "]"))).isEmpty();
    }

    @Test
    void aBodyThatBreaksItsSchemaFails() {
        String wrong = ORDER.replace("\"PLACED\"", "\"SHIPPED\"").replace("\"quantity\":2", "\"quantity\":\"2\"");

        assertThat(String.join("\n", validator.violations(get("/orders/" + ORDER_ID, 200, JSON, wrong))))
                .contains("GET /orders/" + ORDER_ID + " answered 200", "/status", "/items/0/quantity");
    }

    @Test
    void aPropertyTheDescriptionDoesNotNameFails() {
        String extra = ORDER.replace("\"status\"", "\"internalNote\":\"x\",\"status\"");

        assertThat(validator.violations(get("/orders/" + ORDER_ID, 200, JSON, extra))).singleElement().asString()
                .contains("internalNote");
    }

    @Test
    void aStatusTheOperationDoesNotDescribeFails() {
        assertThat(validator.violations(get("/orders/" + ORDER_ID, 418, PROBLEM,
                "{\"title\":\"I'm a teapot\",\"status\":418}"))).singleElement().asString()
                .contains("status 418 is not described");
    }

    @Test
    void aMediaTypeTheResponseDoesNotDescribeFails() {
        assertThat(validator.violations(get("/orders/" + ORDER_ID, 200, Map.of("Content-Type", List.of("text/html")),
                "<p>order</p>"))).singleElement().asString().contains("media type text/html");
    }

    @Test
    void a401WithoutWwwAuthenticateFails() {
        OpenApiExchangeValidator.Exchange withoutHeader = new OpenApiExchangeValidator.Exchange("GET",
                URI.create("/orders"), Map.of(), "", 401, PROBLEM, "{\"title\":\"Unauthorized\",\"status\":401}");

        assertThat(validator.violations(withoutHeader)).singleElement().asString()
                .contains("the required header WWW-Authenticate is missing");
    }

    @Test
    void aRequestTheDescriptionRulesOutMustBeRefused() {
        String booleanPrice = ORDER_REQUEST.replace("\"39.90\"", "true");

        assertThat(validator.violations(post("/orders", booleanPrice, 201, ORDER))).singleElement().asString()
                .contains("the description rules the request out", "unitPrice", "did not refuse it");
        assertThat(validator.violations(post("/orders", booleanPrice, 400,
                "{\"title\":\"Invalid request\",\"status\":400,\"errors\":[{\"field\":\"items[0].unitPrice\","
                        + "\"message\":\"must be a decimal number\"}]}"))).isEmpty();
    }

    @Test
    void aPriceMayBeAJsonStringOrNumber() {
        assertThat(validator.requestViolations(post("/orders", ORDER_REQUEST, 201, ORDER))).isEmpty();
        assertThat(validator.requestViolations(post("/orders", ORDER_REQUEST.replace("\"39.90\"", "39.90"), 201,
                ORDER))).isEmpty();
    }

    @Test
    void aBadParameterOrAMissingTokenMakesTheRequestInvalid() {
        assertThat(validator.requestViolations(get("/orders/not-a-uuid", 400, PROBLEM, ""))).singleElement()
                .asString().contains("path parameter id");
        assertThat(validator.requestViolations(get("/orders?limit=0", 400, PROBLEM, ""))).singleElement()
                .asString().contains("query parameter limit");
        assertThat(validator.requestViolations(get("/orders?colour=red", 400, PROBLEM, ""))).singleElement()
                .asString().contains("colour is not described");
        assertThat(validator.requestViolations(new OpenApiExchangeValidator.Exchange("GET", URI.create("/orders"),
                Map.of(), "", 401, PROBLEM, ""))).singleElement().asString().contains("no bearer token");
    }

    @Test
    void aPathOrMethodTheDescriptionDoesNotHaveMustBeRefused() {
        assertThat(validator.violations(get("/orders/" + ORDER_ID + "/ship", 200, JSON, "{}"))).singleElement()
                .asString().contains("no such operation");
        assertThat(validator.violations(get("/orders/" + ORDER_ID + "/ship", 404, PROBLEM, ""))).isEmpty();
        assertThat(validator.violations(new OpenApiExchangeValidator.Exchange("DELETE",
                URI.create("/orders/" + ORDER_ID), TOKEN, "", 405, PROBLEM, ""))).isEmpty();
    }

    @Test
    void whatIsServedBesideTheApiIsNotChecked() {
        assertThat(validator.violations(get("/actuator/health", 503, JSON, "{\"status\":\"DOWN\"}"))).isEmpty();
        assertThat(validator.violations(get("/", 200, Map.of("Content-Type", List.of("text/html")), "<html>")))
                .isEmpty();
    }

    private static OpenApiExchangeValidator.Exchange get(String path, int status,
                                                         Map<String, List<String>> responseHeaders, String body) {
        return new OpenApiExchangeValidator.Exchange("GET", URI.create(path), TOKEN, "", status, responseHeaders,
                body);
    }

    private static OpenApiExchangeValidator.Exchange post(String path, String body, int status, String response) {
        return new OpenApiExchangeValidator.Exchange("POST", URI.create(path),
                Map.of("Authorization", List.of("Bearer t"), "Content-Type", List.of("application/json")), body,
                status, status == 201 ? Map.of("Content-Type", List.of("application/json"), "Location",
                List.of("/orders/" + ORDER_ID)) : PROBLEM, response);
    }

    private static OpenApiExchangeValidator checkedIn() {
        try {
            return OpenApiExchangeValidator.of(Files.readString(OpenApiDocument.checkedIn()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
