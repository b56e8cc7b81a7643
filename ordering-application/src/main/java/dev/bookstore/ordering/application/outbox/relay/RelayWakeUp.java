package dev.bookstore.ordering.application.outbox.relay;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The relay workers' doorbell: rung for commits here and on other instances, and when the broker accepts publishing
 * again; the workers {@link #await} it between rounds. A ring while nobody waits is remembered, so it is never lost.
 */
public final class RelayWakeUp {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition rung = lock.newCondition();
    private long rings;
    private volatile boolean otherInstancesRing;

    /** Whether commits on other instances ring this doorbell now (PostgreSQL {@code LISTEN} is up). */
    public boolean otherInstancesRing() {
        return otherInstancesRing;
    }

    /** Told by whatever hears other instances' commits whether it hears them now. */
    public void otherInstancesRing(boolean heard) {
        otherInstancesRing = heard;
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
}
