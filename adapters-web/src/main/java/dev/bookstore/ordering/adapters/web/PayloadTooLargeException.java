package dev.bookstore.ordering.adapters.web;

import dev.bookstore.ordering.adapters.web.problem.ProblemResponses;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** A request body beyond the service's limit. */
public final class PayloadTooLargeException extends RuntimeException {

    private final long maxBytes;

    PayloadTooLargeException(long maxBytes) {
        super("request body exceeds " + maxBytes + " bytes");
        this.maxBytes = maxBytes;
    }

    public ProblemDetail toProblem() {
        return problem(maxBytes);
    }

    static ProblemDetail problem(long maxBytes) {
        return ProblemResponses.problem(HttpStatus.CONTENT_TOO_LARGE, "Request body too large",
                "The request body must not exceed " + maxBytes + " bytes.");
    }
}
