package dev.bookstore.ordering.bootstrap.observability;

import dev.bookstore.ordering.application.outbox.admin.GetOutboxStatsQuery;
import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The outbox statistics of this instance, counted by one query every {@code refresh-interval} on a thread of its own
 * and kept: the gauges, the {@code outbox} health component, {@code GET /outbox/stats} and the live page read this
 * snapshot, so however often they are scraped, probed or refreshed, the database sees one query per interval.
 *
 * <p>While the outbox is quiet (the last count found nothing pending and the same numbers as the one before) the next
 * count waits {@code idle-refresh-interval} instead, so an idle instance costs the database a few transactions a
 * minute. A change on this instance ({@link #outboxChanged()}: a commit, a relay round, an operator's action) ends the
 * quiet interval at once: the next count comes {@code refresh-interval} after the last one, at once after a long quiet
 * spell. Counts stay at least {@code refresh-interval} apart, however many changes there are.
 *
 * <p>Its own thread, not the shared scheduler: a long retention run must not freeze the age that the health and the
 * alerts watch. When a count fails (the database is down), the last good numbers stay, with the failure beside them
 * ({@link Snapshot#error()}), and the next interval tries again.
 */
public final class OutboxStatsSnapshot implements GetOutboxStatsQuery, SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxStatsSnapshot.class);

    /**
     * @param stats the last numbers counted, null before the first successful count
     * @param countedAt when they were counted, by this instance's clock (information only)
     * @param error why the last count failed, null when it succeeded
     */
    public record Snapshot(OutboxStats stats, Instant countedAt, String error) {
    }

    private final GetOutboxStatsQuery source;
    private final Duration interval;
    private final Duration idleInterval;
    private final Supplier<ScheduledExecutorService> schedulers;
    private final LongSupplier nanoTime;
    private final List<Consumer<OutboxStats>> listeners = new CopyOnWriteArrayList<>();
    private volatile Snapshot current = new Snapshot(null, null, "not counted yet");
    /** Set by a change, cleared when a count starts: a change during a count keeps the next one soon. */
    private volatile boolean changed;
    private boolean quiet;
    private long lastCountAt;
    private ScheduledExecutorService scheduler;
    private ScheduledFuture<?> next;

    /** Counts every {@code interval}, and every {@code idleInterval} while the outbox is quiet. */
    public OutboxStatsSnapshot(GetOutboxStatsQuery source, Duration interval, Duration idleInterval) {
        this(source, interval, idleInterval, () -> Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "outbox-stats");
            thread.setDaemon(true);
            return thread;
        }), System::nanoTime);
    }

    /**
     * @param schedulers makes the executor each {@link #start()} counts on
     * @param nanoTime   that executor's clock
     */
    OutboxStatsSnapshot(GetOutboxStatsQuery source, Duration interval, Duration idleInterval,
                        Supplier<ScheduledExecutorService> schedulers, LongSupplier nanoTime) {
        this.source = source;
        this.interval = interval;
        this.idleInterval = idleInterval;
        this.schedulers = schedulers;
        this.nanoTime = nanoTime;
    }

    /** Also hands every successful count to {@code listener}, on the snapshot's thread; it must not block. */
    public void onEachCount(Consumer<OutboxStats> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * The outbox changed on this instance: ends a quiet interval, so the change shows within {@code refresh-interval}.
     * Cheap on the committing thread: only the first change after a count takes a lock.
     */
    public void outboxChanged() {
        if (!changed) {
            endQuietInterval();
        }
    }

    private synchronized void endQuietInterval() {
        changed = true;
        if (quiet) {
            quiet = false;
            long due = Math.max(0, lastCountAt + interval.toNanos() - nanoTime.getAsLong());
            if (next != null && next.getDelay(TimeUnit.NANOSECONDS) > due && next.cancel(false)) {
                next = scheduler.schedule(this::countAndScheduleNext, due, TimeUnit.NANOSECONDS);
            }
        }
    }

    /** Counts the outbox now; called every interval, and by tests that do not want to wait for it. */
    public void refresh() {
        synchronized (this) {
            changed = false;
            lastCountAt = nanoTime.getAsLong();
        }
        OutboxStats stats;
        try {
            stats = source.outboxStats();
        } catch (RuntimeException e) {
            if (current.error() == null) {
                LOG.warn("Cannot count the outbox, keeping the last numbers until it works again: {}", e.toString());
            }
            synchronized (this) {
                current = new Snapshot(current.stats(), current.countedAt(), e.getClass().getSimpleName());
                quiet = false;
            }
            return;
        }
        synchronized (this) {
            OutboxStats previous = current.stats();
            quiet = !changed && previous != null && stats.pending() == 0 && stats.parked() == previous.parked()
                    && stats.published() == previous.published();
            current = new Snapshot(stats, Instant.now(), null);
        }
        for (Consumer<OutboxStats> listener : listeners) {
            try {
                listener.accept(stats);
            } catch (RuntimeException e) {
                LOG.warn("An outbox statistics listener failed: {}", e.toString());
            }
        }
    }

    /** How often the outbox is counted while it is not quiet. */
    public Duration refreshInterval() {
        return interval;
    }

    /**
     * Counts once more {@code delay} from now, beside the counts every interval; nothing before {@link #start()} or
     * after {@link #stop()}.
     */
    public synchronized void countAgainIn(Duration delay) {
        if (scheduler != null) {
            scheduler.schedule(this::refresh, delay.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    public Snapshot current() {
        return current;
    }

    /** How long after the last count the next one comes: the idle interval while the outbox is quiet. */
    synchronized Duration nextDelay() {
        return quiet ? idleInterval : interval;
    }

    /** The last numbers counted; before the first count succeeded, an {@link IllegalStateException}. */
    @Override
    public OutboxStats outboxStats() {
        OutboxStats stats = current.stats();
        if (stats == null) {
            throw new IllegalStateException("The outbox has not been counted yet: " + current.error());
        }
        return stats;
    }

    /** The last numbers counted, or all zero before the first count: what a gauge shows. */
    OutboxStats statsOrZero() {
        OutboxStats stats = current.stats();
        return stats != null ? stats : new OutboxStats(0, 0, 0, Duration.ZERO);
    }

    @Override
    public void start() {
        synchronized (this) {
            if (scheduler != null) {
                return;
            }
            scheduler = schedulers.get();
        }
        countAndScheduleNext(); // the first numbers are there before the service takes requests
    }

    private void countAndScheduleNext() {
        try {
            refresh();
        } finally {
            synchronized (this) {
                if (scheduler != null) {
                    next = scheduler.schedule(this::countAndScheduleNext, nextDelay().toNanos(),
                            TimeUnit.NANOSECONDS);
                }
            }
        }
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
            next = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }
}
