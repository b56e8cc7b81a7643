package dev.bookstore.ordering.bootstrap.observability;

import dev.bookstore.ordering.application.outbox.admin.GetOutboxStatsService;
import dev.bookstore.ordering.application.outbox.relay.OutboxStore;
import dev.bookstore.ordering.application.outbox.relay.RelayMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Metrics and health of the outbox: one statistics snapshot per instance that {@code /outbox/stats}, the gauges,
 * the {@code outbox} health component and the live page share; the relay's counters and timers.
 */
@Configuration(proxyBeanMethods = false)
class ObservabilityConfiguration {

    /** Also the {@code GetOutboxStatsQuery} of {@code GET /outbox/stats}: the same numbers as the gauges. */
    @Bean
    OutboxStatsSnapshot outboxStatsSnapshot(OutboxStore outbox, OutboxMonitoringProperties properties) {
        return new OutboxStatsSnapshot(new GetOutboxStatsService(outbox), properties.stats().refreshInterval(),
                properties.stats().idleRefreshInterval());
    }

    @Bean
    OutboxGauges outboxGauges(OutboxStatsSnapshot snapshot) {
        return new OutboxGauges(snapshot);
    }

    /** The component is named {@code outbox}: the bean's name without {@code HealthIndicator}. */
    @Bean
    OutboxHealthIndicator outboxHealthIndicator(OutboxStatsSnapshot snapshot, OutboxMonitoringProperties properties) {
        return new OutboxHealthIndicator(snapshot, new OutboxHealthThresholds(properties.health().degradedAfter(),
                properties.health().downAfter()));
    }

    @Bean
    RelayMetrics relayMetrics(MeterRegistry registry) {
        return new MicrometerRelayMetrics(registry);
    }
}
