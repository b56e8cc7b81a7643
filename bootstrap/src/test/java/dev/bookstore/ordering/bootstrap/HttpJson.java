package dev.bookstore.ordering.bootstrap;

import dev.bookstore.ordering.bootstrap.contract.OpenApiExchangeValidator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A minimal HTTP client for the service under test: plain JDK, no test-only Spring client. Unless told otherwise
 * ({@link #as(String)}, {@link #anonymous()}) it calls as the party the request is about: {@code POST /orders} with
 * a token of the body's customer, everything else with an operator's token ({@link TestTokens}).
 *
 * <p>Every exchange is checked against the API description the service serves at {@code /v3/api-docs}
 * ({@link OpenApiExchangeValidator}): a response that does not match its description, or a request the
 * description rules out that the service accepts, fails the test that sent it, whatever the test asserts.
 */
public final class HttpJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Validators by the description they check against: each built once per test JVM. */
    private static final Map<String, OpenApiExchangeValidator> VALIDATORS = new ConcurrentHashMap<>();

    private final HttpClient client;
    private final String baseUrl;
    /** The bearer token for a request about this customer (null when the request is about none); null: none. */
    private final Function<UUID, String> tokens;
    /** The description this service serves, read at the first request (shared with {@link #as}, {@link #anonymous}). */
    private final AtomicReference<OpenApiExchangeValidator> description;

    public HttpJson(int port) {
        this(HttpClient.newHttpClient(), "http://127.0.0.1:" + port,
                customer -> customer != null ? TestTokens.customer(customer) : TestTokens.operator(),
                new AtomicReference<>());
    }

    private HttpJson(HttpClient client, String baseUrl, Function<UUID, String> tokens,
                     AtomicReference<OpenApiExchangeValidator> description) {
        this.client = client;
        this.baseUrl = baseUrl;
        this.tokens = tokens;
        this.description = description;
    }

    /** The same client, calling with this bearer token on every request. */
    public HttpJson as(String bearerToken) {
        return new HttpJson(client, baseUrl, customer -> bearerToken, description);
    }

    /** The same client, calling without any token. */
    public HttpJson anonymous() {
        return new HttpJson(client, baseUrl, customer -> null, description);
    }

    public record Response(int status, Map<String, List<String>> headers, String body) {

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .findFirst().map(e -> e.getValue().get(0)).orElse(null);
        }
    }

    public Response post(String path, String contentType, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        authorize(request, path.equals("/orders") ? customerIn(body) : null);
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.build(), body);
    }

    public Response postJson(String path, String body, String... headers) {
        return post(path, "application/json", body, headers);
    }

    public Response get(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).GET();
        authorize(request, null);
        return send(request.build(), "");
    }

    public Response delete(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).DELETE();
        authorize(request, null);
        return send(request.build(), "");
    }

    private void authorize(HttpRequest.Builder request, UUID customer) {
        String bearer = tokens.apply(customer);
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
    }

    /** The customerId of an order body, when it is one. */
    private static UUID customerIn(String body) {
        try {
            JsonNode customer = JSON.readTree(body).get("customerId");
            return customer != null && customer.isString() ? UUID.fromString(customer.asString()) : null;
        } catch (RuntimeException notAnOrderBody) {
            return null;
        }
    }

    private Response send(HttpRequest request, String body) {
        Response response = exchange(request);
        if (OpenApiExchangeValidator.isOutsideTheDescription(request.uri().getRawPath())) {
            return response; // the actuator, also on a management port that serves nothing else
        }
        List<String> violations = description().violations(new OpenApiExchangeValidator.Exchange(request.method(),
                request.uri(), request.headers().map(), body, response.status(), response.headers(),
                response.body()));
        if (!violations.isEmpty()) {
            throw new AssertionError("The exchange contradicts the API description (/v3/api-docs):\n  "
                    + String.join("\n  ", violations) + "\nRequest body: " + body + "\nResponse: "
                    + response.headers() + " " + response.body());
        }
        return response;
    }

    private OpenApiExchangeValidator description() {
        OpenApiExchangeValidator validator = description.get();
        if (validator == null) {
            Response served = exchange(HttpRequest.newBuilder(URI.create(baseUrl + "/v3/api-docs")).GET().build());
            if (served.status() != 200) {
                throw new IllegalStateException("GET /v3/api-docs answered " + served.status());
            }
            validator = VALIDATORS.computeIfAbsent(served.body(), OpenApiExchangeValidator::of);
            description.compareAndSet(null, validator);
        }
        return validator;
    }

    private Response exchange(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers().map(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A valid order body with {@code lines} lines. */
    public static String orderJson(String customerId, int lines) {
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            if (i > 0) {
                items.append(',');
            }
            items.append("{\"bookId\":\"978-01344941").append(String.format("%02d", i % 100))
                    .append("\",\"quantity\":2,\"unitPrice\":\"9.95\"}");
        }
        return "{\"customerId\":\"" + customerId + "\",\"currency\":\"EUR\",\"items\":[" + items + "]}";
    }
}
