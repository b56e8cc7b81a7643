package dev.bookstore.ordering.application.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until the test moves it, so that leases, backoff and due times can be checked
 * without waiting. Clocks made by {@link #withZone(ZoneId)} share the same time.
 */
public final class MutableClock extends Clock {

    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    public MutableClock(Instant start) {
        this(new AtomicReference<>(Objects.requireNonNull(start, "start")), ZoneOffset.UTC);
    }

    /** A clock standing at an ISO-8601 instant such as {@code 2025-03-14T09:00:00Z}. */
    public static MutableClock at(String instant) {
        return new MutableClock(Instant.parse(instant));
    }

    /** Moves the clock forward (or back, for a negative duration); returns the new time. */
    public Instant advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        return now.updateAndGet(current -> current.plus(duration));
    }

    /** Puts the clock at the given time. */
    public void set(Instant instant) {
        now.set(Objects.requireNonNull(instant, "instant"));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new MutableClock(now, Objects.requireNonNull(zone, "zone"));
    }

    @Override
    public String toString() {
        return "MutableClock[" + now.get() + ", " + zone + "]";
    }
}
