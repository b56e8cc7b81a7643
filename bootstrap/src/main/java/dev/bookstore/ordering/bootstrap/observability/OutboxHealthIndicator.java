package dev.bookstore.ordering.bootstrap.observability;

import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code outbox} health component: UP, {@code DEGRADED} or DOWN by the age of the oldest pending message
 * ({@link OutboxHealthThresholds}), read from the {@link OutboxStatsSnapshot}, so a probe costs no query. A broker
 * outage shows here, through the age, and never in readiness: the API keeps taking orders while the broker is
 * away. UNKNOWN while the outbox cannot be counted (the database is down: the {@code db} component says so).
 */
public record OutboxHealthIndicator(OutboxStatsSnapshot snapshot, OutboxHealthThresholds thresholds)
        implements HealthIndicator {

    @Override
    public Health health() {
        OutboxStatsSnapshot.Snapshot current = snapshot.current();
        OutboxStats stats = current.stats();
        if (stats == null || current.error() != null) {
            Health.Builder unknown = Health.unknown().withDetail("error", "cannot count the outbox: " + current.error());
            if (current.countedAt() != null) {
                unknown.withDetail("lastCountedAt", current.countedAt().toString());
            }
            return unknown.build();
        }
        return Health.status(thresholds.classify(stats))
                .withDetail("pending", stats.pending())
                .withDetail("parked", stats.parked())
                .withDetail("oldestPendingAgeSeconds", stats.oldestPendingAge().toMillis() / 1000.0)
                .withDetail("degradedAfterSeconds", thresholds.degradedAfter().toMillis() / 1000.0)
                .withDetail("downAfterSeconds", thresholds.downAfter().toMillis() / 1000.0)
                .withDetail("countedAt", current.countedAt().toString())
                .build();
    }
}
