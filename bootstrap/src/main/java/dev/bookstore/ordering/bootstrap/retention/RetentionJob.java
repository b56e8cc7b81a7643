package dev.bookstore.ordering.bootstrap.retention;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one table from growing forever: deletes rows older than a retention, in bounded chunks, each chunk one
 * short auto-committed statement so that none holds many locks or a long transaction. Every instance runs every job
 * ({@link RetentionScheduling}); the statements compare ages on the database's clock and skip rows another
 * instance is deleting ({@code SKIP LOCKED} / {@code READPAST}), so instances never wait for each other, delete a
 * row twice or delete early because a host's clock is off.
 *
 * <p>The outbox job deletes published rows only: pending and parked rows are never deleted automatically. A job
 * made {@link #perRound} asks before each run how it deletes this time, or whether it is held.
 */
public final class RetentionJob {

    private static final Logger LOG = LoggerFactory.getLogger(RetentionJob.class);

    private final String what;
    private final Duration retention;
    private final Duration interval;
    private final int chunk;
    private final Supplier<Deletion> rounds;

    /** A round that deletes nothing. */
    public static final Deletion HELD = (age, limit) -> 0;

    /** Deletes at most {@code limit} rows older than {@code age}; returns how many. */
    @FunctionalInterface
    public interface Deletion {
        int delete(Duration age, int limit);
    }

    /** @param what the rows, for the log: "idempotency key(s) recorded" */
    public RetentionJob(String what, Duration retention, Duration interval, int chunk, Deletion deleteChunk) {
        this(what, retention, interval, chunk, constant(Objects.requireNonNull(deleteChunk, "deleteChunk")));
    }

    private RetentionJob(String what, Duration retention, Duration interval, int chunk, Supplier<Deletion> rounds) {
        if (chunk < 1) {
            throw new IllegalArgumentException("chunk must be positive, got " + chunk);
        }
        this.what = Objects.requireNonNull(what, "what");
        this.retention = Objects.requireNonNull(retention, "retention");
        this.interval = Objects.requireNonNull(interval, "interval");
        this.chunk = chunk;
        this.rounds = Objects.requireNonNull(rounds, "rounds");
    }

    /** A job whose deletion is chosen anew at the start of each run ({@link #HELD} deletes nothing). */
    public static RetentionJob perRound(String what, Duration retention, Duration interval, int chunk,
                                        Supplier<Deletion> rounds) {
        return new RetentionJob(what, retention, interval, chunk, rounds);
    }

    private static Supplier<Deletion> constant(Deletion deletion) {
        return () -> deletion;
    }

    /** How often the job runs on each instance. */
    public Duration interval() {
        return interval;
    }

    /** One scheduled run: never throws, so the schedule goes on after a failure (the next run tries again). */
    public void run() {
        try {
            int deleted = purge();
            if (deleted > 0) {
                LOG.info("Deleted {} {} more than {} ago", deleted, what, retention);
            }
        } catch (RuntimeException e) {
            LOG.warn("Deleting old {} failed, will try again: {}", what, e.toString());
        }
    }

    /** Deletes chunk after chunk until a chunk comes back short; returns the total. */
    public int purge() {
        Deletion deleteChunk = rounds.get();
        int total = 0;
        int deleted;
        do {
            deleted = deleteChunk.delete(retention, chunk);
            total += deleted;
        } while (deleted == chunk);
        return total;
    }
}
