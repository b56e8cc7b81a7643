package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.application.outbox.OutboxCommitListener;
import dev.bookstore.ordering.application.outbox.admin.GetOutboxStatsService;
import dev.bookstore.ordering.application.outbox.admin.OutboxStatistics;
import dev.bookstore.ordering.application.outbox.relay.RelayMetrics;
import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import dev.bookstore.ordering.bootstrap.observability.MicrometerRelayMetrics;
import dev.bookstore.ordering.bootstrap.observability.OutboxGauges;
import dev.bookstore.ordering.bootstrap.observability.OutboxHealthIndicator;
import dev.bookstore.ordering.bootstrap.observability.OutboxHealthThresholds;
import dev.bookstore.ordering.bootstrap.observability.OutboxStatsSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Metrics and health of the outbox: one statistics snapshot per instance that {@code /outbox/stats}, the gauges,
 * the {@code outbox} health component and the live page share; the relay's counters and timers.
 */
@Configuration(proxyBeanMethods = false)
class ObservabilityConfiguration {

    /**
     * Also the {@code GetOutboxStatsQuery} of {@code GET /outbox/stats}: the same numbers as the gauges. In cdc mode
     * the parked messages only (the primary {@code OutboxStatistics} of {@code CdcRelayConfiguration}).
     */
    @Bean
    OutboxStatsSnapshot outboxStatsSnapshot(OutboxStatistics statistics, OutboxProperties properties) {
        return new OutboxStatsSnapshot(new GetOutboxStatsService(statistics), properties.stats().refreshInterval(),
                properties.stats().idleRefreshInterval());
    }

    /** A commit on this instance, or an operator's change, shows in the statistics within the refresh interval. */
    @Bean
    OutboxCommitListener statisticsFollowCommits(OutboxStatsSnapshot snapshot) {
        return committed -> snapshot.outboxChanged();
    }

    @Bean
    OutboxGauges outboxGauges(OutboxStatsSnapshot snapshot) {
        return new OutboxGauges(snapshot);
    }

    /**
     * The component is named {@code outbox}: the bean's name without {@code HealthIndicator}. In cdc mode rows are
     * never marked published, so the component measures the replication slot instead (CdcRelayConfiguration).
     */
    @Bean
    @ConditionalOnDeploymentRelay(Relay.POLLING)
    OutboxHealthIndicator outboxHealthIndicator(OutboxStatsSnapshot snapshot, OutboxProperties properties) {
        return new OutboxHealthIndicator(snapshot, new OutboxHealthThresholds(properties.health().degradedAfter(),
                properties.health().downAfter()));
    }

    @Bean
    RelayMetrics relayMetrics(MeterRegistry registry) {
        return new MicrometerRelayMetrics(registry);
    }
}
