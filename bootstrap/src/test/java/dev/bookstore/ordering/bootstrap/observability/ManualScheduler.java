package dev.bookstore.ordering.bootstrap.observability;

import java.time.Duration;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
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

    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    private long now;
    private long scheduled;
    private boolean shutdown;

    /** This scheduler's clock, in nanoseconds. */
    long nanoTime() {
        return now;
    }

    /** Moves time on by {@code duration}, running every task that falls due meanwhile, also those they schedule. */
    void advance(Duration duration) {
        long until = now + duration.toNanos();
        while (!tasks.isEmpty() && tasks.peek().due <= until) {
            Task task = tasks.poll();
            now = task.due;
            task.done = true;
            task.command.run();
        }
        now = until;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        if (shutdown) {
            throw new RejectedExecutionException("shut down");
        }
        Task task = new Task(command, now + Math.max(0, unit.toNanos(delay)), scheduled++);
        tasks.add(task);
        return task;
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public void shutdown() {
        shutdown = true;
        tasks.clear();
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return shutdown;
    }

    private final class Task implements ScheduledFuture<Object> {

        final Runnable command;
        final long due;
        final long order;
        boolean done;
        boolean cancelled;

        Task(Runnable command, long due, long order) {
            this.command = command;
            this.due = due;
            this.order = order;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(due - now, TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Task task = (Task) other;
            return due != task.due ? Long.compare(due, task.due) : Long.compare(order, task.order);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            if (done || cancelled) {
                return false;
            }
            cancelled = true;
            tasks.remove(this);
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return done || cancelled;
        }

        @Override
        public Object get() {
            return null;
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            return null;
        }
    }
}
