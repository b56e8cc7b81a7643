package dev.bookstore.ordering.adapters.cdc;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether the offsets of one engine's last commit are written. Debezium only logs an offset write that failed and
 * goes on, so without this the relay would go on publishing with nothing committed, and a restart would send the
 * whole failure window again. The engine makes its offset store by class name; the store finds this by the key the
 * engine's configuration carries ({@link JdbcOffsetBackingStore#WRITES}), and the same engine's consumer asks it
 * after every commit.
 */
final class OffsetWrites implements AutoCloseable {

    private static final Map<String, OffsetWrites> OPEN = new ConcurrentHashMap<>();

    private final String key = UUID.randomUUID().toString();
    private volatile boolean unwritten;
    private volatile String lastError;

    private OffsetWrites() {
    }

    /** A new one, found by its {@link #key()} until closed. */
    static OffsetWrites open() {
        OffsetWrites writes = new OffsetWrites();
        OPEN.put(writes.key, writes);
        return writes;
    }

    /** The one open under {@code key}, or one nobody asks (a store configured without it). */
    static OffsetWrites of(String key) {
        OffsetWrites writes = key == null ? null : OPEN.get(key);
        return writes != null ? writes : new OffsetWrites();
    }

    String key() {
        return key;
    }

    /** A write begins: the offsets are unwritten until it succeeds. */
    void writing() {
        unwritten = true;
    }

    void written() {
        lastError = null;
        unwritten = false;
    }

    void failed(Exception error) {
        lastError = error.toString();
    }

    /** True from the start of a write until one succeeds: a write failed or is still waiting for the database. */
    boolean unwritten() {
        return unwritten;
    }

    /** Why the last write failed, or null while it only waits. */
    String lastError() {
        return lastError;
    }

    @Override
    public void close() {
        OPEN.remove(key);
    }
}
