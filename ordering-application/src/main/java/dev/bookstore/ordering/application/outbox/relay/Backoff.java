package dev.bookstore.ordering.application.outbox.relay;

import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with "equal jitter": after the n-th failure wait between half and all of
 * {@code min(max, initial * 2^(n-1))}. The jitter spreads the retries of messages that failed together, the
 * lower half keeps a retry from coming back almost at once.
 */
public record Backoff(Duration initial, Duration max, DoubleSupplier random) {

    public Backoff {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        Objects.requireNonNull(random, "random");
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("initial backoff must be positive, got " + initial);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max backoff (%s) is below initial (%s)".formatted(max, initial));
        }
    }

    public static Backoff exponential(Duration initial, Duration max) {
        return new Backoff(initial, max, Math::random);
    }

    /** The delay after the {@code failures}-th failed attempt (1 for the first). */
    public Duration delayAfter(int failures) {
        int doublings = Math.min(Math.max(failures - 1, 0), 62);
        long ceilingMillis = initial.toMillis();
        for (int i = 0; i < doublings && ceilingMillis < max.toMillis(); i++) {
            ceilingMillis *= 2;
        }
        ceilingMillis = Math.min(ceilingMillis, max.toMillis());
        long half = ceilingMillis / 2;
        return Duration.ofMillis(half + Math.round(random.getAsDouble() * (ceilingMillis - half)));
    }
}
