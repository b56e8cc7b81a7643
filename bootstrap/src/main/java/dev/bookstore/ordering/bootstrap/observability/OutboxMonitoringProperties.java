package dev.bookstore.ordering.bootstrap.observability;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the outbox is watched, under {@code ordering.outbox.stats} and {@code ordering.outbox.health}.
 *
 * @param stats the one statistics query that the gauges, the outbox health component, /outbox/stats and the live
 *              page all read
 * @param health the age thresholds of the outbox health component
 */
@Validated
@ConfigurationProperties("ordering.outbox")
public record OutboxMonitoringProperties(@Valid @DefaultValue Stats stats, @Valid @DefaultValue Health health) {

    /**
     * @param refreshInterval how often this instance counts the outbox (one indexed query); every reader gets the
     *                        latest count, so scrapes, probes and page refreshes add no query of their own
     * @param idleRefreshInterval how often it counts while the outbox is quiet (nothing pending, nothing published
     *                            since the count before); the first count that sees activity goes back to
     *                            refresh-interval
     */
    public record Stats(@DefaultValue("2s") @NotNull Duration refreshInterval,
                        @DefaultValue("10s") @NotNull Duration idleRefreshInterval) {

        @AssertTrue(message = "refresh-interval must be between 100ms and 5m")
        boolean isRefreshIntervalSane() {
            return refreshInterval == null || (refreshInterval.compareTo(Duration.ofMillis(100)) >= 0
                    && refreshInterval.compareTo(Duration.ofMinutes(5)) <= 0);
        }

        @AssertTrue(message = "idle-refresh-interval must be at least refresh-interval and at most 5m")
        boolean isIdleRefreshIntervalSane() {
            return refreshInterval == null || idleRefreshInterval == null
                    || (idleRefreshInterval.compareTo(refreshInterval) >= 0
                    && idleRefreshInterval.compareTo(Duration.ofMinutes(5)) <= 0);
        }
    }

    /**
     * @param degradedAfter the outbox health component is DEGRADED once the oldest pending message is older than this
     * @param downAfter the outbox health component is DOWN once the oldest pending message is older than this
     */
    public record Health(@DefaultValue("10s") @NotNull Duration degradedAfter,
                         @DefaultValue("60s") @NotNull Duration downAfter) {

        @AssertTrue(message = "degraded-after must be positive and below down-after")
        boolean isThresholdsOrdered() {
            return degradedAfter == null || downAfter == null
                    || (!degradedAfter.isNegative() && !degradedAfter.isZero() && degradedAfter.compareTo(downAfter) < 0);
        }
    }
}
