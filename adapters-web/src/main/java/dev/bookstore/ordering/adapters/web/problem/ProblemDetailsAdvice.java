package dev.bookstore.ordering.adapters.web.problem;

import static dev.bookstore.ordering.adapters.web.problem.ProblemResponses.problem;

import dev.bookstore.ordering.adapters.web.ForeignCustomerException;
import dev.bookstore.ordering.adapters.web.IdempotencyKeyHeader;
import dev.bookstore.ordering.adapters.web.PayloadTooLargeException;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeyReusedException;
import dev.bookstore.ordering.application.idempotency.InvalidIdempotencyKeyException;
import dev.bookstore.ordering.application.idempotency.RequestInProgressException;
import dev.bookstore.ordering.application.ordering.OrderNotFoundException;
import dev.bookstore.ordering.domain.order.InvalidOrderException;
import dev.bookstore.ordering.domain.order.OrderCannotBeCancelledException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.core.MethodParameter;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.method.ParameterValidationResult;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;

/**
 * Every error as RFC 9457 problem details. Validation problems carry {@code errors}: a list of
 * {@code {"field", "message"}} with the JSON path of the field at fault, e.g. {@code items[0].quantity}.
 * Spring MVC's own exceptions (415, 405, 406, 404 for unknown paths) come from the base class in the same
 * format. A change that lost a race with another request on the same order is a {@code 409}; a database out of
 * reach a {@code 503} ({@link ServiceUnavailableAdvice}). No stack trace ever leaves the service.
 */
@RestControllerAdvice
class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

    @ExceptionHandler(InvalidOrderException.class)
    ProblemDetail invalidOrder(InvalidOrderException e) {
        return validationProblem(List.of(fieldError(e.field(), e.reason())));
    }

    @ExceptionHandler(OrderNotFoundException.class)
    ProblemDetail notFound(OrderNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, "Order not found", e.getMessage());
    }

    @ExceptionHandler(ForeignCustomerException.class)
    ProblemDetail foreignCustomer(ForeignCustomerException e) {
        return problem(HttpStatus.FORBIDDEN, "Forbidden", e.getMessage());
    }

    @ExceptionHandler(OrderCannotBeCancelledException.class)
    ProblemDetail conflict(OrderCannotBeCancelledException e) {
        return problem(HttpStatus.CONFLICT, "Order cannot be cancelled", e.getMessage());
    }

    @ExceptionHandler(InvalidIdempotencyKeyException.class)
    ProblemDetail invalidIdempotencyKey(InvalidIdempotencyKeyException e) {
        return validationProblem(List.of(fieldError(IdempotencyKeyHeader.NAME, e.reason())));
    }

    /** RFC 9110 422: the request is well-formed, but the key in it names a different request. */
    @ExceptionHandler(IdempotencyKeyReusedException.class)
    ProblemDetail idempotencyKeyReused(IdempotencyKeyReusedException e) {
        return problem(HttpStatus.UNPROCESSABLE_CONTENT, "Idempotency-Key reused",
                "This Idempotency-Key was already used for a different request; nothing was changed. Use a new key "
                        + "for a new order.");
    }

    /** 409 at once rather than a wait: the client asks again, after a second, for the first request's outcome. */
    @ExceptionHandler(RequestInProgressException.class)
    ResponseEntity<ProblemDetail> requestInProgress(RequestInProgressException e) {
        ProblemDetail problem = problem(HttpStatus.CONFLICT, "Request in progress",
                "A request with this Idempotency-Key is still being processed; nothing was changed. Retry to get "
                        + "its outcome.");
        return ResponseEntity.status(HttpStatus.CONFLICT).header(HttpHeaders.RETRY_AFTER, "1").body(problem);
    }

    /**
     * Two requests changed the same order at once (two cancels racing): the second commit finds the version it
     * read gone. Its transaction rolled back, so it changed nothing; the client may read the order and retry.
     * The order adapter throws it when its conditional {@code UPDATE} finds the version changed.
     */
    @ExceptionHandler(OptimisticLockingFailureException.class)
    ProblemDetail concurrentChange(OptimisticLockingFailureException e) {
        return problem(HttpStatus.CONFLICT, "Concurrent change",
                "The order was changed by another request at the same time; this request changed nothing. "
                        + "Read the order again and retry if the change still applies.");
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
        String field = json == null ? "" : JsonFieldPath.of(json);
        ProblemDetail problem;
        if (!field.isEmpty()) {
            String what = json instanceof StreamReadException && !(json instanceof InputCoercionException)
                    ? "is not acceptable JSON: " : "has the wrong type or format: ";
            problem = validationProblem(List.of(fieldError(field, what + JsonFieldPath.firstLine(json.getOriginalMessage()))));
        } else {
            problem = problem(HttpStatus.BAD_REQUEST, "Malformed request body",
                    json != null ? "The body is not valid JSON: " + JsonFieldPath.firstLine(json.getOriginalMessage())
                            : "The request body is missing or unreadable.");
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
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid request",
                "The request has invalid fields; nothing was changed.");
        problem.setProperty("errors", errors);
        return problem;
    }

    private static Map<String, String> fieldError(String field, String message) {
        return Map.of("field", field, "message", message);
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
