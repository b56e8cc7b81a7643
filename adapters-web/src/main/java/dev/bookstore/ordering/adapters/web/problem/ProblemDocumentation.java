package dev.bookstore.ordering.adapters.web.problem;

import dev.bookstore.ordering.adapters.web.ApiDocumentationConfiguration;
import dev.bookstore.ordering.adapters.web.Caller;
import dev.bookstore.ordering.adapters.web.WebConfiguration;
import dev.bookstore.ordering.adapters.web.security.WebSecurityConfiguration;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * The error side of the API description: the problem details body ({@link ProblemDetailsAdvice},
 * {@link WebSecurityConfiguration}) as a schema, one reusable response per kind of problem, and the defaults
 * every operation gets: it needs a bearer token (401 without one, 403 without the scope) and answers 400 to a
 * bad request; one that takes a body answers 413 to one too large and 415 to one that is not JSON. An operation
 * that says nothing about security is an operator's ({@code orders.admin}), as in the filter chain, where every
 * request not matched otherwise needs that scope.
 */
@Component
public class ProblemDocumentation implements GlobalOpenApiCustomizer {

    public static final String SCHEMA = "Problem";
    public static final String FIELD_ERROR_SCHEMA = "FieldError";

    static final String INVALID_REQUEST = "InvalidRequest";
    static final String UNAUTHORIZED = "Unauthorized";
    static final String FORBIDDEN = "Forbidden";
    public static final String NOT_FOUND = "NotFound";
    public static final String CONFLICT = "Conflict";
    public static final String CONTENT_TOO_LARGE = "ContentTooLarge";
    public static final String UNSUPPORTED_MEDIA_TYPE = "UnsupportedMediaType";
    public static final String IDEMPOTENCY_KEY_REUSED = "IdempotencyKeyReused";
    public static final String SERVICE_UNAVAILABLE = "ServiceUnavailable";
    public static final String NO_OUTBOX_MESSAGE = "OutboxMessageNotFound";
    public static final String OUTBOX_MESSAGE_STATE = "OutboxMessageInAnotherState";

    static final String PROBLEM_JSON = org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE;

    public static final String RESPONSES = "#/components/responses/";

    public static Schema<?> problemSchema() {
        return new ObjectSchema()
                .description("RFC 9457 problem details. Never a stack trace.")
                .addProperty("type", new StringSchema().format("uri-reference")
                        .description("Identifies the kind of problem; absent means `about:blank`: the status "
                                + "says it all"))
                .addProperty("title", new StringSchema().description("Short summary of the kind of problem"))
                .addProperty("status", new IntegerSchema().description("The HTTP status code"))
                .addProperty("detail", new StringSchema()
                        .description("What went wrong with this request, and whether anything was changed"))
                .addProperty("instance", new StringSchema().format("uri-reference")
                        .description("The path of the request"))
                .addProperty("errors", new ArraySchema().items(new Schema<>().$ref(FIELD_ERROR_SCHEMA))
                        .description("Validation problems (400 only): one per field at fault"))
                .required(List.of("title", "status"));
    }

    public static Schema<?> fieldErrorSchema() {
        return new ObjectSchema()
                .addProperty("field", new StringSchema().example("items[0].quantity")
                        .description("JSON path of the field, query parameter or header at fault"))
                .addProperty("message", new StringSchema().example("must be between 1 and 1000, got 0"))
                .required(List.of("field", "message"));
    }

    /** The problems operations refer to by name ({@code #/components/responses/...}). */
    public static Map<String, ApiResponse> responses() {
        Map<String, ApiResponse> responses = new LinkedHashMap<>();
        responses.put(INVALID_REQUEST, problem("The request is malformed or has invalid fields (listed in "
                + "`errors`); nothing was changed."));
        responses.put(UNAUTHORIZED, problem("The bearer token is missing, expired, not meant for this service (`aud`), "
                + "without `exp`, valid for longer than the service allows, or not signed by a trusted key.")
                .addHeaderObject("WWW-Authenticate", new Header().schema(new StringSchema()).required(true)
                        .description("`Bearer`, with the RFC 6750 error when a token was sent")));
        responses.put(FORBIDDEN, problem("The token lacks the scope this needs, or names another customer."));
        responses.put(NOT_FOUND, problem("No such order, or not one the caller may see (another customer's order "
                + "is not disclosed)."));
        responses.put(CONFLICT, problem("The order's state does not allow this, or another request changed it "
                + "at the same time, or a request with the same Idempotency-Key is still being processed "
                + "(then with `Retry-After`); nothing was changed.")
                .addHeaderObject("Retry-After", new Header().schema(new IntegerSchema())
                        .description("Seconds to wait before asking again for the first request's outcome")));
        responses.put(CONTENT_TOO_LARGE, problem("The request body exceeds %d bytes."
                .formatted(WebConfiguration.MAX_BODY.toBytes())));
        responses.put(UNSUPPORTED_MEDIA_TYPE, problem("The request body is not `application/json`; nothing was "
                + "changed."));
        responses.put(IDEMPOTENCY_KEY_REUSED, problem("The Idempotency-Key was already used for a different "
                + "request; nothing was changed."));
        responses.put(SERVICE_UNAVAILABLE, problem("The service cannot take this now: its database is unreachable "
                + "(nothing was changed, or, if the connection broke while committing, the detail says the change "
                + "may have been made), or it is taking orders faster than it can finish their in-process work "
                + "(nothing was changed). Retry after `Retry-After`, with the same Idempotency-Key.")
                .addHeaderObject("Retry-After", new Header().schema(new IntegerSchema())
                        .description("Seconds to wait before retrying")));
        responses.put(NO_OUTBOX_MESSAGE, problem("No outbox message has this id."));
        responses.put(OUTBOX_MESSAGE_STATE, problem("The message is not in the state the action needs: parked for a "
                + "requeue or a discard, published for a resend; or no relay would send it (an instance without a "
                + "relay, not told the deployment's, while a change stream reads the slot). Nothing was changed."));
        return responses;
    }

    private static ApiResponse problem(String description) {
        return new ApiResponse().description(description).content(new Content().addMediaType(PROBLEM_JSON,
                new MediaType().schema(new Schema<>().$ref(SCHEMA))));
    }

    @Override
    public void customise(OpenAPI api) {
        if (api.getTags() != null) {
            // springdoc collects them in no fixed order; the checked-in document must not change by chance
            api.getTags().sort(Comparator.comparing(Tag::getName));
        }
        if (api.getPaths() != null) {
            api.getPaths().values().forEach(path -> path.readOperations().forEach(ProblemDocumentation::complete));
        }
    }

    private static void complete(Operation operation) {
        if (operation.getSecurity() == null || operation.getSecurity().isEmpty()) {
            operation.addSecurityItem(new SecurityRequirement()
                    .addList(ApiDocumentationConfiguration.BEARER, Caller.OPERATOR_SCOPE));
        }
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        responses.putIfAbsent("400", reference(INVALID_REQUEST));
        responses.putIfAbsent("401", reference(UNAUTHORIZED));
        responses.putIfAbsent("403", reference(FORBIDDEN));
        if (operation.getRequestBody() != null) {
            // RequestBodyLimitFilter and Spring MVC answer these before any controller, for every body
            responses.putIfAbsent("413", reference(CONTENT_TOO_LARGE));
            responses.putIfAbsent("415", reference(UNSUPPORTED_MEDIA_TYPE));
        }
        operation.setResponses(responses);
    }

    static ApiResponse reference(String name) {
        return new ApiResponse().$ref(RESPONSES + name);
    }
}
