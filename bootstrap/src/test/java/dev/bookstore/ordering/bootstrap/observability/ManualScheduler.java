package dev.bookstore.ordering.bootstrap.observability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose time moves only when the test says so ({@link #advance}): the tasks due run on the test's
 * thread, in the order they are due. Supports one-shot {@code schedule(Runnable, ...)} and {@code cancel}.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

    /** Sorted by due time; tasks due at the same time in the order they were scheduled. */
    private final List<Task> tasks = new ArrayList<>();
    private long now;
    private boolean shutdown;

    /** This scheduler's clock, in nanoseconds. */
    long nanoTime() {
        return now;
    }

    /** Moves time on by {@code duration}, running every task that falls due meanwhile, also those they schedule. */
    void advance(Duration duration) {
        long until = now + duration.toNanos();
        while (!tasks.isEmpty() && tasks.get(0).due <= until) {
            Task task = tasks.remove(0);
            now = task.due;
            task.command.run();
            task.complete(null);
        }
        now = until;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        if (shutdown) {
            throw new RejectedExecutionException("shut down");
        }
        Task task = new Task(command, now + Math.max(0, unit.toNanos(delay)));
        int at = 0;
        while (at < tasks.size() && tasks.get(at).due <= task.due) {
            at++;
        }
        tasks.add(at, task);
        return task;
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        tasks.clear();
        return List.of();
    }

    @Override
    public void shutdown() {
        shutdownNow();
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    /** Nothing runs in the background: shut down is terminated. */
    @Override
    public boolean isTerminated() {
        return isShutdown();
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isTerminated();
    }

    private final class Task extends CompletableFuture<Object> implements ScheduledFuture<Object> {

        final Runnable command;
        final long due;

        Task(Runnable command, long due) {
            this.command = command;
            this.due = due;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(due - now, TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            tasks.remove(this);
            return cancelled;
        }
    }
}
