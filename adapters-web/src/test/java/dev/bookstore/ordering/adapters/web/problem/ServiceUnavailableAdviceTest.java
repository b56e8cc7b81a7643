package dev.bookstore.ordering.adapters.web.problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.TransactionSystemException;

/**
 * A rollback that failed after the connection broke answers 503 like the broken statement itself would have; a
 * rollback that failed for another reason stays unhandled (500). The exceptions are the ones seen in
 * {@code DatabaseOutageIT} when a request took a pooled connection just after the database went away.
 */
class ServiceUnavailableAdviceTest {

    private final ServiceUnavailableAdvice advice = new ServiceUnavailableAdvice();

    @Test
    void aRollbackThatFailedOnALostConnectionAnswers503WithRetryAfter() {
        SQLException io = new SQLException("An I/O error occurred while sending to the backend.", "08006");
        UncategorizedSQLException rollback = new UncategorizedSQLException("JDBC rollback", null,
                new SQLException("Unable to rollback against JDBC Connection", io));

        ResponseEntity<ProblemDetail> answer = advice.rollbackFailed(rollback);

        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER))
                .isEqualTo(String.valueOf(ServiceUnavailableAdvice.DATABASE_RETRY_AFTER_SECONDS));
        assertThat(answer.getBody().getTitle()).isEqualTo("Service unavailable");
        assertThat(answer.getBody().getDetail()).contains("lost its database connection");
    }

    @Test
    void aRollbackThatFailedOnTheClosedConnectionThePoolLeftAnswers503() {
        // what HikariCP throws once it has evicted a broken connection; the commit's own exception is gone
        TransactionSystemException rollback = new TransactionSystemException("JDBC rollback failed",
                new SQLException("Connection is closed"));

        ResponseEntity<ProblemDetail> answer = advice.rollbackFailed(rollback);

        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER))
                .isEqualTo(String.valueOf(ServiceUnavailableAdvice.DATABASE_RETRY_AFTER_SECONDS));
        assertThat(answer.getBody().getDetail()).contains("lost its database connection");
    }

    @Test
    void aRollbackThatFailedForAnotherReasonIsLeftUnhandled() {
        TransactionSystemException other = new TransactionSystemException("rollback failed",
                new SQLException("deadlock detected", "40P01"));

        assertThatThrownBy(() -> advice.rollbackFailed(other)).isSameAs(other);
    }
}
