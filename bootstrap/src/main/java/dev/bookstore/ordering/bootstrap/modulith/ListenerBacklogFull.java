package dev.bookstore.ordering.bootstrap.modulith;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the in-process listeners' executor does with a listener run when its queue is full
 * ({@code spring.task.execution.pool.queue-capacity}): it drops the run and counts it ({@value #NAME}). The event
 * is not lost: its publication was stored with the order and stays incomplete, and the scheduled resubmission
 * ({@link IncompletePublicationsResubmission}) hands it over again once it has waited longer than
 * {@code ordering.modulith.resubmit-older-than}, when the instance has had time to catch up.
 *
 * <p>Why a bound at all: each queued run holds its event in memory (about 1.1 KB, measured with a heap histogram
 * of 11,591 queued runs), and under a sustained load the listeners cannot follow, the queue grew without end: at
 * {@code -Xmx256m} about 180,000 queued runs, some minutes of saturation, would exhaust the heap of the process that
 * also takes the orders and runs the relay. Dropping is the choice that keeps the order path independent of the
 * listeners: running the listener on the submitting thread instead would make a request that still holds its
 * database connection (the order's transaction completes around this call) wait for a second one.
 *
 * <p>One warning per minute at most, with the number dropped since the last one. Runs refused because the executor
 * shuts down are counted too, without a warning: their publications are resubmitted on the next start.
 */
public final class ListenerBacklogFull implements RejectedExecutionHandler {

    public static final String NAME = "ordering.modulith.listener.runs.dropped";
    private static final Logger LOG = LoggerFactory.getLogger(ListenerBacklogFull.class);
    private static final Duration WARNING_INTERVAL = Duration.ofMinutes(1);

    private final Counter dropped;
    private final Clock clock;
    private final AtomicLong droppedSinceWarning = new AtomicLong();
    private final AtomicReference<Instant> lastWarning = new AtomicReference<>(Instant.MIN);

    public ListenerBacklogFull(MeterRegistry registry, Clock clock) {
        this.dropped = Counter.builder(NAME)
                .description("In-process listener runs dropped because their queue was full; their event "
                        + "publications stay incomplete and are resubmitted")
                .register(registry);
        this.clock = clock;
    }

    @Override
    public void rejectedExecution(Runnable run, ThreadPoolExecutor executor) {
        dropped.increment();
        if (executor.isShutdown()) {
            return;
        }
        long since = droppedSinceWarning.incrementAndGet();
        Instant now = clock.instant();
        Instant last = lastWarning.get();
        if (now.isAfter(last.plus(WARNING_INTERVAL)) && lastWarning.compareAndSet(last, now)) {
            droppedSinceWarning.addAndGet(-since);
            LOG.warn("The in-process listeners' queue is full ({} runs waiting): {} listener runs dropped since the "
                            + "last warning; their event publications stay incomplete and are resubmitted after "
                            + "ordering.modulith.resubmit-older-than", executor.getQueue().size(), since);
        }
    }
}
