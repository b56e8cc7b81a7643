package dev.bookstore.ordering.bootstrap.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MicrometerRelayMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerRelayMetrics metrics = new MicrometerRelayMetrics(registry);
    private final OutboxMessage message = new OutboxMessage(UUID.randomUUID(), "order", "o-1",
            "bookstore.order-placed.v1", "bookstore.ordering", "order.placed", "{}", Map.of(), Instant.now(), 0);

    @Test
    void everyCounterExistsAtZeroBeforeAnythingHappened() {
        assertThat(registry.get(MicrometerRelayMetrics.PUBLISHED).counter().count()).isZero();
        assertThat(registry.get(MicrometerRelayMetrics.FAILED).counters()).hasSize(5);
        assertThat(registry.get(MicrometerRelayMetrics.FAILED).tag("reason", "channel_closed").counter().count())
                .isZero();
        assertThat(registry.get(MicrometerRelayMetrics.FAILED).tag("reason", "broker_unavailable").counter().count())
                .isZero();
        assertThat(registry.get(MicrometerRelayMetrics.PARKED).counter().count()).isZero();
        assertThat(registry.get(MicrometerRelayMetrics.RETURNED).counter().count()).isZero();
    }

    @Test
    void aConfirmCountsAndTimesTheMessage() {
        metrics.published(message, Duration.ofMillis(20), Duration.ofMillis(150));

        assertThat(registry.get(MicrometerRelayMetrics.PUBLISHED).counter().count()).isEqualTo(1);
        assertThat(registry.get(MicrometerRelayMetrics.PUBLISH_TO_CONFIRM).timer().totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(20);
        assertThat(registry.get(MicrometerRelayMetrics.COMMIT_TO_CONFIRM).timer().totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(150);
    }

    @Test
    void aNegativeCommitToConfirmFromAnotherHostsClockIsNotRecorded() {
        metrics.published(message, Duration.ofMillis(20), Duration.ofMillis(-5));

        assertThat(registry.get(MicrometerRelayMetrics.COMMIT_TO_CONFIRM).timer().count()).isZero();
        assertThat(registry.get(MicrometerRelayMetrics.PUBLISH_TO_CONFIRM).timer().count()).isEqualTo(1);
    }

    @Test
    void failuresAreCountedByReasonAndAReturnAlsoAsReturned() {
        metrics.failed(message, Outcome.RETURNED, true);
        metrics.failed(message, Outcome.NACKED, true);
        metrics.failed(message, Outcome.NACKED, true);
        metrics.parked(message);

        assertThat(registry.get(MicrometerRelayMetrics.FAILED).tag("reason", "nacked").counter().count()).isEqualTo(2);
        assertThat(registry.get(MicrometerRelayMetrics.FAILED).tag("reason", "returned").counter().count())
                .isEqualTo(1);
        assertThat(registry.get(MicrometerRelayMetrics.RETURNED).counter().count()).isEqualTo(1);
        assertThat(registry.get(MicrometerRelayMetrics.PARKED).counter().count()).isEqualTo(1);
    }
}
