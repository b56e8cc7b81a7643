package dev.bookstore.ordering.adapters.web.problem;

import dev.bookstore.ordering.adapters.web.ListenerBacklog;
import java.sql.SQLException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.UncategorizedDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * {@code 503} problem details with {@code Retry-After} when the database is out of reach or the in-process work is
 * backed up: load balancers and clients come back later instead of getting a {@code 500}.
 */
@RestControllerAdvice
class ServiceUnavailableAdvice {

    /** What a 503 for an unreachable database asks clients to wait before they retry. */
    static final int DATABASE_RETRY_AFTER_SECONDS = 5;

    private static final String CONNECTION_LOST = "The service lost its database connection during the request; a "
            + "change may or may not have been made. Retry later, with the same Idempotency-Key to be safe.";

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

    static ResponseEntity<ProblemDetail> serviceUnavailable(String detail) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, String.valueOf(DATABASE_RETRY_AFTER_SECONDS))
                .body(ProblemResponses.problem(HttpStatus.SERVICE_UNAVAILABLE, "Service unavailable", detail));
    }

}
