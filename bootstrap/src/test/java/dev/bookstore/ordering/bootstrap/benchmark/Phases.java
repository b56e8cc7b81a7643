package dev.bookstore.ordering.bootstrap.benchmark;

/**
 * Where one drain spent its wall-clock time, summed over its batches. A relay that cannot tell publishing and
 * waiting for confirms apart (the project's publisher does both in one call) leaves {@link #confirmNanos} at -1
 * and counts the wait in {@link #publishNanos}.
 */
final class Phases {

    long claimNanos;
    long publishNanos;
    long confirmNanos = -1;
    long markNanos;
    int batches;

    void addConfirm(long nanos) {
        confirmNanos = Math.max(confirmNanos, 0) + nanos;
    }

    /** Everything that is not claim, publish, confirm or mark: the relay's own bookkeeping and loop. */
    long otherNanos(long elapsedNanos) {
        return elapsedNanos - claimNanos - publishNanos - Math.max(confirmNanos, 0) - markNanos;
    }
}
