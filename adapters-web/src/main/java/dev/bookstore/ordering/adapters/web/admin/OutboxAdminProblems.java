package dev.bookstore.ordering.adapters.web.admin;

import static dev.bookstore.ordering.adapters.web.problem.ProblemResponses.problem;

import dev.bookstore.ordering.application.outbox.admin.InvalidReplayException;
import dev.bookstore.ordering.application.outbox.admin.OutboxMessageNotFoundException;
import dev.bookstore.ordering.application.outbox.admin.OutboxMessageStateException;
import dev.bookstore.ordering.application.outbox.admin.UnseenChangeException;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** The operator API's own refusals as problem details; Spring MVC's (bad parameters, bodies) are the shared ones. */
@RestControllerAdvice(assignableTypes = OutboxAdminController.class)
class OutboxAdminProblems {

    @ExceptionHandler(OutboxMessageNotFoundException.class)
    ProblemDetail notFound(OutboxMessageNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, "Outbox message not found", e.getMessage());
    }

    @ExceptionHandler(OutboxMessageStateException.class)
    ProblemDetail wrongState(OutboxMessageStateException e) {
        return problem(HttpStatus.CONFLICT, "Outbox message in another state", e.getMessage());
    }

    @ExceptionHandler(UnseenChangeException.class)
    ProblemDetail unseen(UnseenChangeException e) {
        return problem(HttpStatus.CONFLICT, "No relay would send it", e.getMessage());
    }

    /** Like every validation problem of the service: a field list. */
    @ExceptionHandler(InvalidReplayException.class)
    ProblemDetail invalidReplay(InvalidReplayException e) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid request",
                "The replay is not bounded as it must be; nothing was queued.");
        problem.setProperty("errors", List.of(Map.of("field", e.field(), "message", e.reason())));
        return problem;
    }
}
