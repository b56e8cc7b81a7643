package dev.bookstore.ordering.adapters.modulith;

import java.time.Duration;
import org.springframework.core.env.Environment;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * A listener run that finds no free database connection waits for one instead of failing. The listeners share the
 * API's pool, whose {@code connection-timeout} is short so that a request answers 503 soon; a listener run has
 * nobody waiting for its answer, and a failed one would wait for a resubmission round. So its transaction and its
 * completion are tried again, with a backoff from 50 ms to 1 s, while the cause is a connection not had (nothing of
 * the run was written: its transaction did not begin), for at most {@code ordering.modulith.listener-connection-wait}
 * (60 s); after that the run fails as before and is resubmitted. Spring's {@link RetryTemplate}; the listeners count
 * each event id once, so a run tried twice counts once.
 */
public final class ListenerConnectionWait {

    public static final String PROPERTY = "ordering.modulith.listener-connection-wait";
    static final Duration DEFAULT = Duration.ofSeconds(60);

    private final RetryTemplate retry;

    public ListenerConnectionWait(Duration maxWait) {
        this.retry = new RetryTemplate(RetryPolicy.builder()
                .predicate(ListenerConnectionWait::noConnection)
                .maxRetries(Long.MAX_VALUE)
                .delay(Duration.ofMillis(50))
                .multiplier(2)
                .maxDelay(Duration.ofSeconds(1))
                .timeout(maxWait)
                .build());
    }

    /** The wait {@code ordering.modulith.listener-connection-wait} names (60 s when unset). */
    public static ListenerConnectionWait from(Environment environment) {
        return new ListenerConnectionWait(environment.getProperty(PROPERTY, Duration.class, DEFAULT));
    }

    /** Runs {@code work}, again while it fails for want of a connection; then throws what it threw last. */
    public void run(Runnable work) {
        try {
            retry.execute(() -> {
                work.run();
                return null;
            });
        } catch (RetryException e) {
            Throwable last = e.getLastException() != null ? e.getLastException() : e.getCause();
            if (last instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (last instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(last);
        }
    }

    /** A transaction that could not begin, or a statement that got no connection (the pool's wait ran out). */
    static boolean noConnection(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof CannotCreateTransactionException
                    || cause instanceof DataAccessResourceFailureException) {
                return true;
            }
        }
        return false;
    }
}
