package dev.bookstore.ordering.adapters.modulith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.transaction.CannotCreateTransactionException;

/** A listener run waits for a connection it could not get; any other failure fails it at once. */
class ListenerConnectionWaitTest {

    private final AtomicInteger tries = new AtomicInteger();

    @Test
    void aRunThatGotNoConnectionIsTriedAgainUntilItGetsOne() {
        new ListenerConnectionWait(Duration.ofSeconds(10)).run(() -> {
            if (tries.incrementAndGet() < 4) {
                throw new CannotCreateTransactionException("Could not open JDBC Connection for transaction",
                        new java.sql.SQLTransientConnectionException("ordering - Connection is not available"));
            }
        });

        assertThat(tries).hasValue(4);
    }

    @Test
    void aCompletionThatGotNoConnectionIsTriedAgain() {
        new ListenerConnectionWait(Duration.ofSeconds(10)).run(() -> {
            if (tries.incrementAndGet() < 2) {
                throw new DataAccessResourceFailureException("Failed to obtain JDBC Connection");
            }
        });

        assertThat(tries).hasValue(2);
    }

    @Test
    void afterTheWaitTheRunFailsWithWhatItThrewLast() {
        long started = System.nanoTime();

        assertThatThrownBy(() -> new ListenerConnectionWait(Duration.ofMillis(300)).run(() -> {
            tries.incrementAndGet();
            throw new CannotCreateTransactionException("Could not open JDBC Connection for transaction");
        })).isInstanceOf(CannotCreateTransactionException.class);

        assertThat(tries.get()).isGreaterThan(1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void anyOtherFailureFailsTheRunAtOnce() {
        assertThatThrownBy(() -> new ListenerConnectionWait(Duration.ofSeconds(10)).run(() -> {
            tries.incrementAndGet();
            throw new DataIntegrityViolationException("duplicate key");
        })).isInstanceOf(DataIntegrityViolationException.class);

        assertThat(tries).hasValue(1);
    }
}
