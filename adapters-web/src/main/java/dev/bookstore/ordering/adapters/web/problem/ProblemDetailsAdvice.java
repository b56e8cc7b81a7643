package dev.bookstore.ordering.adapters.web.problem;

import dev.bookstore.ordering.adapters.web.ForeignCustomerException;
import dev.bookstore.ordering.adapters.web.IdempotencyKeyHeader;
import dev.bookstore.ordering.adapters.web.ListenerBacklog;
import dev.bookstore.ordering.adapters.web.PayloadTooLargeException;
import dev.bookstore.ordering.application.idempotency.InvalidIdempotencyKeyException;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeyReusedException;
import dev.bookstore.ordering.application.ordering.OrderNotFoundException;
import dev.bookstore.ordering.application.idempotency.RequestInProgressException;
import dev.bookstore.ordering.domain.order.InvalidOrderException;
import dev.bookstore.ordering.domain.order.OrderCannotBeCancelledException;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.core.MethodParameter;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.dao.UncategorizedDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.validation.method.ParameterValidationResult;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;

/**
 * Every error as RFC 9457 problem details. Validation problems carry {@code errors}: a list of
 * {@code {"field", "message"}} with the JSON path of the field at fault, e.g. {@code items[0].quantity}.
 * Spring MVC's own exceptions (415, 405, 406, 404 for unknown paths) come from the base class in the same
 * format. A change that lost a race with another request on the same order is a {@code 409}; a database out of
 * reach a {@code 503} with {@code Retry-After}. No stack trace ever leaves the service.
 */
@RestControllerAdvice
class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

    /** What a 503 for an unreachable database asks clients to wait before they retry. */
    static final int DATABASE_RETRY_AFTER_SECONDS = 5;

    private static final String CONNECTION_LOST = "The service lost its database connection during the request; a "
            + "change may or may not have been made. Retry later, with the same Idempotency-Key to be safe.";

    /** "(but could if coercion was enabled using `CoercionConfig`)" and its variants. */
    private static final Pattern COERCION_ADVICE = Pattern.compile(" \\(but \\w+ if coercion [^)]*\\)");

    @ExceptionHandler(InvalidOrderException.class)
    ProblemDetail invalidOrder(InvalidOrderException e) {
        return validationProblem(List.of(fieldError(e.field(), e.reason())));
    }

    @ExceptionHandler(OrderNotFoundException.class)
    ProblemDetail notFound(OrderNotFoundException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
        problem.setTitle("Order not found");
        return problem;
    }

    @ExceptionHandler(ForeignCustomerException.class)
    ProblemDetail foreignCustomer(ForeignCustomerException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, e.getMessage());
        problem.setTitle("Forbidden");
        return problem;
    }

    @ExceptionHandler(OrderCannotBeCancelledException.class)
    ProblemDetail conflict(OrderCannotBeCancelledException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        problem.setTitle("Order cannot be cancelled");
        return problem;
    }

    @ExceptionHandler(InvalidIdempotencyKeyException.class)
    ProblemDetail invalidIdempotencyKey(InvalidIdempotencyKeyException e) {
        return validationProblem(List.of(fieldError(IdempotencyKeyHeader.NAME, e.reason())));
    }

    /** RFC 9110 422: the request is well-formed, but the key in it names a different request. */
    @ExceptionHandler(IdempotencyKeyReusedException.class)
    ProblemDetail idempotencyKeyReused(IdempotencyKeyReusedException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.UNPROCESSABLE_CONTENT,
                "This Idempotency-Key was already used for a different request; nothing was changed. Use a new key "
                        + "for a new order.");
        problem.setTitle("Idempotency-Key reused");
        return problem;
    }

    /** 409 at once rather than a wait: the client asks again, after a second, for the first request's outcome. */
    @ExceptionHandler(RequestInProgressException.class)
    ResponseEntity<ProblemDetail> requestInProgress(RequestInProgressException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
                "A request with this Idempotency-Key is still being processed; nothing was changed. Retry to get "
                        + "its outcome.");
        problem.setTitle("Request in progress");
        return ResponseEntity.status(HttpStatus.CONFLICT).header(HttpHeaders.RETRY_AFTER, "1").body(problem);
    }

    /**
     * Two requests changed the same order at once (two cancels racing): the second commit finds the version it
     * read gone. Its transaction rolled back, so it changed nothing; the client may read the order and retry.
     * The order adapter throws it when its conditional {@code UPDATE} finds the version changed.
     */
    @ExceptionHandler(OptimisticLockingFailureException.class)
    ProblemDetail concurrentChange(OptimisticLockingFailureException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
                "The order was changed by another request at the same time; this request changed nothing. "
                        + "Read the order again and retry if the change still applies.");
        problem.setTitle("Concurrent change");
        return problem;
    }

    /**
     * The database cannot be reached: no connection came from the pool within its connection timeout
     * ({@code spring.datasource.hikari.connection-timeout}), so no transaction began and nothing was changed. A
     * 503 with {@code Retry-After} tells clients and load balancers to come back, instead of a 500 after the pool's
     * default 30 s.
     */
    @ExceptionHandler(CannotCreateTransactionException.class)
    ResponseEntity<ProblemDetail> databaseUnavailable(CannotCreateTransactionException e) {
        return serviceUnavailable(
                "The service cannot reach its database right now; nothing was changed. Retry later.");
    }

    /** Too much in-process work queued ({@link ListenerBacklog}): nothing was written. */
    @ExceptionHandler(ListenerBacklog.ListenerBacklogFullException.class)
    ResponseEntity<ProblemDetail> listenerBacklogFull(ListenerBacklog.ListenerBacklogFullException e) {
        return serviceUnavailable("The service is taking orders faster than it can finish their in-process work; "
                + "nothing was changed. Retry later.");
    }

    /**
     * The connection broke during the request. If it broke while committing, the change may have been made: the
     * answer says so, and a client that sent an {@code Idempotency-Key} can retry with it safely.
     */
    @ExceptionHandler(DataAccessResourceFailureException.class)
    ResponseEntity<ProblemDetail> databaseLost(DataAccessResourceFailureException e) {
        return serviceUnavailable(CONNECTION_LOST);
    }

    /**
     * The connection broke during the request and the rollback that followed failed on it too: Spring then throws
     * the rollback's exception (a {@link TransactionSystemException}, or an {@link UncategorizedDataAccessException}), not the
     * {@link DataAccessResourceFailureException} of the statement, and the lost connection shows only in the cause
     * (a {@link SQLException} of class 08, "connection exception"). Seen when a request takes a pooled connection
     * the pool had no reason yet to test, just after the database went away. When the statement that broke was sent
     * at the commit (an order's writes go then), the pool has already thrown the broken connection out by the time
     * of the rollback, and the rollback fails on the closed connection the pool left in its place: HikariCP throws a
     * plain {@code SQLException("Connection is closed")}, with no SQL state, and Spring keeps only the rollback's
     * exception. A rollback's {@link TransactionSystemException} caused by an {@link SQLException} without a state
     * is that case. Anything else goes on as unhandled.
     */
    @ExceptionHandler({TransactionSystemException.class, UncategorizedDataAccessException.class})
    ResponseEntity<ProblemDetail> rollbackFailed(RuntimeException e) {
        if (!connectionLost(e)) {
            throw e;
        }
        return serviceUnavailable(CONNECTION_LOST);
    }

    private static boolean connectionLost(Throwable failure) {
        if (failure instanceof TransactionSystemException && failure.getCause() instanceof SQLException closed
                && closed.getSQLState() == null) {
            return true;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }

    private static ResponseEntity<ProblemDetail> serviceUnavailable(String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, detail);
        problem.setTitle("Service unavailable");
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, String.valueOf(DATABASE_RETRY_AFTER_SECONDS)).body(problem);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ProblemDetail typeMismatch(MethodArgumentTypeMismatchException e) {
        return validationProblem(List.of(fieldError(e.getName(), "is not a valid " + simpleType(e))));
    }

    @ExceptionHandler(PayloadTooLargeException.class)
    ProblemDetail tooLarge(PayloadTooLargeException e) {
        return e.toProblem();
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        PayloadTooLargeException tooLarge = causeOf(e, PayloadTooLargeException.class);
        if (tooLarge != null) {
            return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(tooLarge.toProblem());
        }
        JacksonException json = causeOf(e, JacksonException.class);
        String field = json == null ? "" : field(json);
        ProblemDetail problem;
        if (!field.isEmpty()) {
            String what = json instanceof StreamReadException && !(json instanceof InputCoercionException)
                    ? "is not acceptable JSON: " : "has the wrong type or format: ";
            problem = validationProblem(List.of(fieldError(field, what + firstLine(json.getOriginalMessage()))));
        } else {
            problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
                    json != null ? "The body is not valid JSON: " + firstLine(json.getOriginalMessage())
                            : "The request body is missing or unreadable.");
            problem.setTitle("Malformed request body");
        }
        return ResponseEntity.badRequest().body(problem);
    }

    /** A query parameter out of its range, such as {@code GET /orders?limit=-1}. */
    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
                                                                            HttpHeaders headers,
                                                                            HttpStatusCode status,
                                                                            WebRequest request) {
        List<Map<String, String>> errors = new ArrayList<>();
        for (ParameterValidationResult result : e.getParameterValidationResults()) {
            String name = parameterName(result.getMethodParameter());
            for (MessageSourceResolvable error : result.getResolvableErrors()) {
                errors.add(fieldError(name, error.getDefaultMessage() + ", got " + result.getArgument()));
            }
        }
        return ResponseEntity.badRequest().body(validationProblem(errors));
    }

    private static String parameterName(MethodParameter parameter) {
        RequestParam requestParam = parameter.getParameterAnnotation(RequestParam.class);
        if (requestParam != null && !requestParam.name().isEmpty()) {
            return requestParam.name();
        }
        String name = parameter.getParameterName();
        return name != null ? name : "parameter " + parameter.getParameterIndex();
    }

    private static ProblemDetail validationProblem(List<Map<String, String>> errors) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
                "The request has invalid fields; nothing was changed.");
        problem.setTitle("Invalid request");
        problem.setProperty("errors", errors);
        return problem;
    }

    private static Map<String, String> fieldError(String field, String message) {
        return Map.of("field", field, "message", message);
    }

    /**
     * The field at fault. A reading problem (a key given twice, broken syntax, an integer out of range) is where the
     * parser stood when it stopped; a binding problem is Jackson's reference chain. Jackson's constraints (nesting,
     * number length) report neither parser nor key: for them the chain names the enclosing object at best.
     */
    private static String field(JacksonException e) {
        JsonParser parser = e instanceof StreamReadException read ? read.processor() : null;
        if (parser != null) {
            String where = path(parser.streamReadContext());
            if (!where.isEmpty()) {
                return where;
            }
        }
        return path(e);
    }

    /** {@code items[0].quantity} from the parser's context chain. */
    private static String path(TokenStreamContext context) {
        Deque<String> segments = new ArrayDeque<>();
        for (TokenStreamContext level = context; level != null && !level.inRoot(); level = level.getParent()) {
            if (level.inArray() && level.hasCurrentIndex()) {
                segments.push("[" + level.getCurrentIndex() + "]");
            } else if (level.inObject() && level.currentName() != null) {
                segments.push(level.currentName());
            }
        }
        StringBuilder path = new StringBuilder();
        for (String segment : segments) {
            if (!path.isEmpty() && !segment.startsWith("[")) {
                path.append('.');
            }
            path.append(segment);
        }
        return path.toString();
    }

    /** {@code items[0].quantity} from Jackson's reference chain. */
    private static String path(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    /** Jackson's message without its second line and without advice that only its configuration could follow. */
    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable value";
        }
        int newline = message.indexOf('\n');
        String line = newline < 0 ? message : message.substring(0, newline);
        return COERCION_ADVICE.matcher(line).replaceFirst("");
    }

    private static String simpleType(MethodArgumentTypeMismatchException e) {
        return e.getRequiredType() == null ? "value" : e.getRequiredType().getSimpleName();
    }

    private static <T extends Throwable> T causeOf(Throwable e, Class<T> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }
}
