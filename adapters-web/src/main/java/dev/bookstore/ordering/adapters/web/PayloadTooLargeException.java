package dev.bookstore.ordering.adapters.web;
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
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE,
                "The request body must not exceed " + maxBytes + " bytes.");
        problem.setTitle("Request body too large");
        return problem;
    }
}
