package dev.bookstore.ordering.adapters.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.IntSupplier;

/**
 * Admission of the requests that give the in-process listeners work ({@code POST /orders} and the cancel): refused
 * with {@code 503} and {@code Retry-After} while {@code ordering.modulith.max-queued-listener-runs} listener runs
 * already wait for a thread.
 *
 * <p>Why: every event publication stays in memory from the order's commit until its listener completes (the run
 * queued on the listeners' executor, and Spring Modulith's registry keeps each publication in progress), about
 * 1.1 KB per order (measured with a heap histogram of 11,591 queued runs). Under a sustained load the listeners,
 * sharing the cores with the requests, do not keep up, and nothing bounded that memory: at {@code -Xmx128m}, 64
 * connections for seven minutes left 75,000 publications queued, the old generation full and the service in back
 * to back full collections (docs/benchmarks.md). Dropping listener runs would not help, since the registry still
 * holds their publications; refusing new work while the backlog is full keeps the memory bounded and tells clients
 * when to come back. Nothing is written for a refused request.
 */
public final class ListenerBacklog {

    public static final String REFUSED = "ordering.modulith.listener.backlog.refusals";

    private final IntSupplier queued;
    private final int limit;
    private final Counter refused;

    /**
     * @param queued listener runs waiting for a thread of the listeners' executor
     * @param limit  the most that may wait before requests that add more are refused
     */
    public ListenerBacklog(IntSupplier queued, int limit, MeterRegistry registry) {
        this.queued = queued;
        this.limit = limit;
        this.refused = Counter.builder(REFUSED)
                .description("Requests refused with 503 because the in-process listeners' backlog was full")
                .register(registry);
    }

    /** @throws ListenerBacklogFullException when the backlog is full */
    void admit() {
        if (queued.getAsInt() >= limit) {
            refused.increment();
            throw new ListenerBacklogFullException();
        }
    }

    public static final class ListenerBacklogFullException extends RuntimeException {

        ListenerBacklogFullException() {
            super("the in-process listeners' backlog is full", null, false, false);
        }
    }
}
