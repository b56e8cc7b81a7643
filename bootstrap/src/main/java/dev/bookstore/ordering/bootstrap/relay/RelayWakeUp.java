package dev.bookstore.ordering.bootstrap.relay;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The doorbell of the relay workers: {@link #ring()} after a commit that wrote outbox rows; workers
 * {@link #await(Duration)} between rounds. A ring while nobody waits is remembered, so it is never lost.
 */
public final class RelayWakeUp {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition rung = lock.newCondition();
    private long rings;
    private volatile boolean otherInstancesRing;

    /**
     * Whether commits on other instances ring this doorbell (PostgreSQL {@code LISTEN} is up); while they do,
     * an idle relay needs to poll only as a safety net.
     */
    public boolean otherInstancesRing() {
        return otherInstancesRing;
    }

    void otherInstancesRing(boolean ring) {
        otherInstancesRing = ring;
    }

    public void ring() {
        lock.lock();
        try {
            rings++;
            rung.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until rung (since {@code seen}) or until {@code timeout}.
     *
     * @param seen the value this caller last got back, so rings during its last round count
     * @return the current ring count, to pass back next time
     */
    public long await(long seen, Duration timeout) throws InterruptedException {
        lock.lock();
        try {
            long nanos = timeout.toNanos();
            while (rings == seen && nanos > 0) {
                nanos = rung.awaitNanos(nanos);
            }
            return rings;
        } finally {
            lock.unlock();
        }
    }

    public long rings() {
        lock.lock();
        try {
            return rings;
        } finally {
            lock.unlock();
        }
    }

    /** Waits for {@code timeout} whatever rings: for backing off while the broker is away. */
    static void pause(Duration timeout) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(timeout.toNanos());
    }
}
