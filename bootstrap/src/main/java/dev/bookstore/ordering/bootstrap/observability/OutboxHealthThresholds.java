package dev.bookstore.ordering.bootstrap.observability;

import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.health.contributor.Status;

/**
 * The outbox's health from the age of its oldest pending message (by the database's clock): a backlog that is
 * large but moving is healthy, a single message that does not leave is not. Pending counts every message neither
 * published nor parked, also one waiting for its backoff or held behind a parked message in ordered mode.
 * Parked messages block nothing and do not change the status; they have their own gauge and alert.
 */
public record OutboxHealthThresholds(Duration degradedAfter, Duration downAfter) {

    /** Still serving, but the outbox lags: HTTP 200, with this status in the body. */
    public static final Status DEGRADED = new Status("DEGRADED",
            "the oldest pending outbox message waits longer than expected");

    public OutboxHealthThresholds {
        Objects.requireNonNull(degradedAfter, "degradedAfter");
        Objects.requireNonNull(downAfter, "downAfter");
        if (degradedAfter.compareTo(downAfter) >= 0) {
            throw new IllegalArgumentException("degradedAfter must be below downAfter");
        }
    }

    /** UP up to {@link #degradedAfter()}, DEGRADED above it, DOWN above {@link #downAfter()}. */
    public Status classify(OutboxStats stats) {
        Duration age = stats.pending() == 0 ? Duration.ZERO : stats.oldestPendingAge();
        if (age.compareTo(downAfter) > 0) {
            return Status.DOWN;
        }
        if (age.compareTo(degradedAfter) > 0) {
            return DEGRADED;
        }
        return Status.UP;
    }
}
