package dev.bookstore.ordering.bootstrap.contract;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.NonValidationKeyword;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks HTTP exchanges against an OpenAPI 3.1 description, its schemas validated by networknt's JSON Schema
 * validator in the OpenAPI 3.1 dialect (draft 2020-12 with OpenAPI's vocabulary), formats asserted:
 *
 * <ul>
 *   <li>the request: path, query and header parameters, the bearer token an operation's security asks for, the
 *       body's media type and schema. A request the description calls invalid may be sent (tests send bad ones on
 *       purpose), but it must be refused with a 4xx: a 2xx means the service accepts what the description rules
 *       out;</li>
 *   <li>the response: its status is one the operation describes, the headers described as required are there and
 *       every described header present matches its schema, the body has a described media type and matches its
 *       schema, with no property the schema does not name (response schemas are closed for the check);</li>
 *   <li>a path or method the description does not have must be answered with a 4xx, except what is served beside
 *       the API and deliberately left out of its description ({@link #isOutsideTheDescription}).</li>
 * </ul>
 *
 * A 500 is not checked: an unexpected failure is a bug, not an answer the API describes (the tests that provoke
 * one assert that it gives nothing away).
 *
 * Test code only: nothing of it runs in the service.
 */
public final class OpenApiExchangeValidator {

    /**
     * Served beside the API and deliberately not part of its description: the actuator (probes, metrics), the
     * description itself, the try-out run's token endpoint (prefixes), and the static page (exact paths).
     */
    private static final List<String> OUTSIDE_THE_DESCRIPTION = List.of("/actuator/", "/v3/api-docs", "/try-out/");
    private static final List<String> STATIC_PAGE = List.of("/", "/index.html", "/app.js", "/style.css",
            "/favicon.ico", "/actuator");

    private static final String DOCUMENT = "urn:ordering-service:openapi";
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch",
            "trace");

    private final JsonNode document;
    /** Schemas as described: a request may carry more than they name. */
    private final Schema requests;
    /** Schemas closed ({@code additionalProperties: false}): a response carries nothing undescribed. */
    private final Schema responses;
    private final List<String> templates;
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    private OpenApiExchangeValidator(JsonNode document) {
        this.document = document;
        this.requests = rootSchema(document);
        this.responses = rootSchema(closed(document.deepCopy()));
        List<String> paths = new ArrayList<>(document.path("paths").propertyNames());
        // literal segments before templated ones: /customers/me/... before /customers/{customerId}/...
        paths.sort(Comparator.comparingLong((String path) -> path.chars().filter(c -> c == '{').count())
                .thenComparing(Comparator.naturalOrder()));
        this.templates = List.copyOf(paths);
    }

    /** A validator for the description in this JSON text (what {@code /v3/api-docs} serves). */
    public static OpenApiExchangeValidator of(String openApiJson) {
        JsonNode document = OpenApiDocument.parse(openApiJson);
        if (!document.path("openapi").asString("").startsWith("3.1")) {
            throw new IllegalArgumentException("Not an OpenAPI 3.1 document: openapi = " + document.get("openapi"));
        }
        return new OpenApiExchangeValidator(document);
    }

    /** One request and the answer to it; header names in any case. */
    public record Exchange(String method, URI uri, Map<String, List<String>> requestHeaders, String requestBody,
                           int status, Map<String, List<String>> responseHeaders, String responseBody) {
    }

    /** Everything in this exchange that contradicts the description; empty when it agrees. */
    public List<String> violations(Exchange exchange) {
        String method = exchange.method().toLowerCase(Locale.ROOT);
        String path = exchange.uri().getRawPath();
        String what = exchange.method() + " " + exchange.uri().getRawPath()
                + (exchange.uri().getRawQuery() == null ? "" : "?" + exchange.uri().getRawQuery())
                + " answered " + exchange.status();
        if (isOutsideTheDescription(path) || exchange.status() == 500) {
            return List.of();
        }
        Optional<Match> match = match(path);
        if (match.isEmpty() || !match.get().pathItem().has(method)) {
            return isClientError(exchange.status()) ? List.of()
                    : List.of(what + ": the description has no such operation, yet the service did not refuse it");
        }
        Operation operation = new Operation(match.get(), method);
        List<String> request = requestViolations(operation, exchange);
        List<String> found = new ArrayList<>();
        if (!request.isEmpty() && !isClientError(exchange.status())) {
            found.add(what + ": the description rules the request out (" + String.join("; ", request)
                    + "), yet the service did not refuse it with a 4xx");
        }
        responseViolations(operation, exchange).forEach(violation -> found.add(what + ": " + violation));
        return found;
    }

    /** Whether this path is served beside the API, deliberately not described: nothing to check. */
    public static boolean isOutsideTheDescription(String rawPath) {
        return STATIC_PAGE.contains(rawPath) || OUTSIDE_THE_DESCRIPTION.stream().anyMatch(rawPath::startsWith);
    }

    /** What the description says is wrong with the request alone (deliberately bad requests have some). */
    public List<String> requestViolations(Exchange exchange) {
        return match(exchange.uri().getRawPath())
                .filter(match -> match.pathItem().has(exchange.method().toLowerCase(Locale.ROOT)))
                .map(match -> requestViolations(new Operation(match, exchange.method().toLowerCase(Locale.ROOT)),
                        exchange))
                .orElse(List.of("no such operation"));
    }

    private record Match(String template, JsonNode pathItem, Map<String, String> pathParameters) {
    }

    /** An operation and where it is in the document, as a JSON pointer. */
    private record Operation(Match match, String method) {

        String pointer() {
            return "/paths/" + escape(match.template()) + "/" + method;
        }

        JsonNode node(JsonNode document) {
            return document.at(pointer());
        }
    }

    private Optional<Match> match(String rawPath) {
        String[] segments = rawPath.split("/", -1);
        for (String template : templates) {
            String[] expected = template.split("/", -1);
            if (expected.length != segments.length) {
                continue;
            }
            Map<String, String> parameters = new LinkedHashMap<>();
            boolean matches = true;
            for (int i = 0; i < expected.length && matches; i++) {
                if (expected[i].startsWith("{") && expected[i].endsWith("}")) {
                    matches = !segments[i].isEmpty();
                    parameters.put(expected[i].substring(1, expected[i].length() - 1), decode(segments[i]));
                } else {
                    matches = expected[i].equals(segments[i]);
                }
            }
            if (matches) {
                return Optional.of(new Match(template, document.path("paths").path(template), parameters));
            }
        }
        return Optional.empty();
    }

    private List<String> requestViolations(Operation operation, Exchange exchange) {
        List<String> found = new ArrayList<>();
        JsonNode node = operation.node(document);
        Map<String, String> query = query(exchange.uri());
        List<String> described = new ArrayList<>();
        for (Described parameter : parameters(operation)) {
            String name = parameter.node().path("name").asString();
            String in = parameter.node().path("in").asString();
            String value = switch (in) {
                case "path" -> operation.match().pathParameters().get(name);
                case "query" -> query.get(name);
                case "header" -> header(exchange.requestHeaders(), name);
                default -> null;
            };
            if (in.equals("query")) {
                described.add(name);
            }
            if (value == null) {
                if (parameter.node().path("required").asBoolean(false)) {
                    found.add("the required " + in + " parameter " + name + " is missing");
                }
                continue;
            }
            String pointer = parameter.pointer() + "/schema";
            errors(requests, pointer, coerce(value, pointer))
                    .forEach(error -> found.add(in + " parameter " + name + " = '" + value + "': " + error));
        }
        query.keySet().stream().filter(name -> !described.contains(name))
                .forEach(name -> found.add("the query parameter " + name + " is not described"));
        if (needsToken(node) && header(exchange.requestHeaders(), "Authorization") == null) {
            found.add("no bearer token, which the operation's security requires");
        }
        String body = exchange.requestBody() == null ? "" : exchange.requestBody();
        if (!node.has("requestBody")) {
            if (!body.isEmpty()) {
                found.add("a request body, where the description has none");
            }
            return found;
        }
        Described requestBody = resolve(operation.pointer() + "/requestBody");
        if (body.isEmpty()) {
            if (requestBody.node().path("required").asBoolean(false)) {
                found.add("no request body, which is required");
            }
            return found;
        }
        String mediaType = mediaType(header(exchange.requestHeaders(), "Content-Type"));
        JsonNode content = requestBody.node().path("content");
        if (mediaType == null || !content.has(mediaType)) {
            found.add("request media type " + mediaType + ", described: " + content.propertyNames());
            return found;
        }
        validateJson(requests, requestBody.pointer() + "/content/" + escape(mediaType) + "/schema", mediaType, body)
                .forEach(error -> found.add("request body " + error));
        return found;
    }

    private List<String> responseViolations(Operation operation, Exchange exchange) {
        List<String> found = new ArrayList<>();
        JsonNode described = operation.node(document).path("responses");
        String status = String.valueOf(exchange.status());
        String key = described.has(status) ? status
                : described.has(status.charAt(0) + "XX") ? status.charAt(0) + "XX"
                : described.has("default") ? "default" : null;
        if (key == null) {
            return List.of("status " + status + " is not described (described: " + described.propertyNames() + ")");
        }
        Described response = resolve(operation.pointer() + "/responses/" + escape(key));
        for (String name : response.node().path("headers").propertyNames()) {
            Described header = resolve(response.pointer() + "/headers/" + escape(name));
            String value = header(exchange.responseHeaders(), name);
            if (value == null) {
                if (header.node().path("required").asBoolean(false)) {
                    found.add("the required header " + name + " is missing");
                }
                continue;
            }
            String pointer = header.pointer() + "/schema";
            errors(responses, pointer, coerce(value, pointer))
                    .forEach(error -> found.add("header " + name + " = '" + value + "': " + error));
        }
        JsonNode content = response.node().path("content");
        String body = exchange.responseBody() == null ? "" : exchange.responseBody();
        if (body.isEmpty()) {
            if (!content.isEmpty() && !exchange.method().equalsIgnoreCase("HEAD")) {
                found.add("no body, where the description has one of " + content.propertyNames());
            }
            return found;
        }
        String mediaType = mediaType(header(exchange.responseHeaders(), "Content-Type"));
        if (content.isEmpty()) {
            found.add("a " + mediaType + " body, where the description has none");
            return found;
        }
        if (mediaType == null || !content.has(mediaType)) {
            found.add("media type " + mediaType + ", described: " + content.propertyNames());
            return found;
        }
        validateJson(responses, response.pointer() + "/content/" + escape(mediaType) + "/schema", mediaType, body)
                .forEach(error -> found.add("body " + error));
        return found;
    }

    private List<String> validateJson(Schema root, String schemaPointer, String mediaType, String body) {
        if (!mediaType.equals("application/json") && !mediaType.endsWith("+json")) {
            return List.of();
        }
        JsonNode json;
        try {
            json = OpenApiDocument.parse(body);
        } catch (JacksonException notJson) {
            return List.of("is not JSON: " + notJson.getOriginalMessage());
        }
        return errors(root, schemaPointer, json);
    }

    private List<String> errors(Schema root, String schemaPointer, JsonNode instance) {
        Schema schema = schemas.computeIfAbsent((root == requests ? "request:" : "response:") + schemaPointer,
                ignored -> root.getSubSchema(SchemaLocation.Fragment.of(schemaPointer)));
        return schema.validate(instance).stream().map(Error::toString).toList();
    }

    /** A node of the document, followed through {@code $ref} (local references only), and where it is. */
    private record Described(String pointer, JsonNode node) {
    }

    private Described resolve(String pointer) {
        JsonNode node = document.at(pointer);
        for (int hops = 0; node.has("$ref") && hops < 10; hops++) {
            pointer = node.get("$ref").asString().substring(1);
            node = document.at(pointer);
        }
        if (node.isMissingNode()) {
            throw new IllegalStateException("The description has nothing at " + pointer);
        }
        return new Described(pointer, node);
    }

    /** The operation's parameters and its path item's, by reference or inline. */
    private List<Described> parameters(Operation operation) {
        String pathItem = "/paths/" + escape(operation.match().template());
        List<Described> found = new ArrayList<>();
        Stream.of(pathItem + "/parameters", operation.pointer() + "/parameters").forEach(list -> {
            for (int i = 0; i < document.at(list).size(); i++) {
                found.add(resolve(list + "/" + i));
            }
        });
        return found;
    }

    private boolean needsToken(JsonNode operation) {
        JsonNode security = operation.has("security") ? operation.get("security") : document.path("security");
        if (security.isEmpty()) {
            return false;
        }
        for (JsonNode requirement : security) {
            if (requirement.isEmpty()) {
                return false; // {} : anonymous allowed
            }
        }
        return true;
    }

    /** A parameter's text as the JSON value its schema's types allow: {@code 20} a number where one may be. */
    private JsonNode coerce(String value, String schemaPointer) {
        JsonNode schema = document.at(schemaPointer);
        for (int hops = 0; schema.has("$ref") && hops < 10; hops++) {
            schema = document.at(schema.get("$ref").asString().substring(1));
        }
        List<String> types = new ArrayList<>();
        JsonNode type = schema.path("type");
        if (type.isArray()) {
            type.forEach(t -> types.add(t.asString()));
        } else if (type.isString()) {
            types.add(type.asString());
        }
        boolean numeric = types.contains("integer") || types.contains("number");
        if (numeric && value.matches("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?")) {
            return JsonNodeFactory.instance.numberNode(new BigDecimal(value));
        }
        if (types.contains("boolean") && (value.equals("true") || value.equals("false"))) {
            return JsonNodeFactory.instance.booleanNode(Boolean.parseBoolean(value));
        }
        return JsonNodeFactory.instance.stringNode(value);
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                int equals = pair.indexOf('=');
                String name = decode(equals < 0 ? pair : pair.substring(0, equals));
                parameters.putIfAbsent(name, equals < 0 ? "" : decode(pair.substring(equals + 1)));
            }
        }
        return parameters;
    }

    private static String header(Map<String, List<String>> headers, String name) {
        return headers.entrySet().stream().filter(header -> header.getKey().equalsIgnoreCase(name))
                .flatMap(header -> header.getValue().stream()).findFirst().orElse(null);
    }

    private static String mediaType(String contentType) {
        return contentType == null ? null : contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
    }

    private static boolean isClientError(int status) {
        return status >= 400 && status < 500;
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    private static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    private static Schema rootSchema(JsonNode document) {
        // the document's own keys (paths, components, ...) are not schema keywords: known, and ignored
        Dialect openApi31 = Dialect.builder(Dialects.getOpenApi31())
                .keywords(Stream.of("openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks",
                        "components", "security", "tags", "externalDocs").map(NonValidationKeyword::new).toList())
                .build();
        SchemaRegistry registry = SchemaRegistry.withDialect(openApi31, builder -> builder
                .schemas(Map.of(DOCUMENT, document.toString()))
                .schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
        return registry.getSchema(SchemaLocation.of(DOCUMENT));
    }

    /** The document with every object schema that names its properties closed to any other. */
    private static JsonNode closed(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.path("properties").isObject() && !object.has("additionalProperties")
                    && !object.has("unevaluatedProperties")) {
                object.put("additionalProperties", false);
            }
            object.values().forEach(OpenApiExchangeValidator::closed);
        } else if (node.isArray()) {
            node.values().forEach(OpenApiExchangeValidator::closed);
        }
        return node;
    }
}
