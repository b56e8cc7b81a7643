package dev.bookstore.ordering.bootstrap.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.capture.CaptureLag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.util.unit.DataSize;

/** The cdc mode's outbox health and gauges from the slot's lag, the oldest unconfirmed change and the retained WAL. */
class CdcLagMonitorTest {

    private static final CdcLagMonitor.Thresholds THRESHOLDS = new CdcLagMonitor.Thresholds(DataSize.ofMegabytes(64),
            DataSize.ofGigabytes(1), Duration.ofSeconds(60), Duration.ofMinutes(15), DataSize.ofGigabytes(1),
            DataSize.ofGigabytes(8));
    private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");

    @Test
    void theStatusFollowsTheLagTheAgeTheRetainedWalAndWhetherAnyoneReads() {
        assertThat(status(lag(true, 1024, 4096), 0)).isEqualTo(Status.UP);
        assertThat(status(lag(false, 0, 0), 0)).as("nobody reads the slot").isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(THRESHOLDS.classify(CaptureLag.noSlot(NOW, 0), Duration.ZERO))
                .isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(status(lag(true, DataSize.ofMegabytes(65).toBytes(), 0), 0))
                .isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(status(lag(true, 0, DataSize.ofGigabytes(2).toBytes()), 0))
                .isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(status(lag(true, DataSize.ofGigabytes(2).toBytes(), 0), 0)).isEqualTo(Status.DOWN);
        assertThat(status(lag(true, 0, DataSize.ofGigabytes(9).toBytes()), 0)).isEqualTo(Status.DOWN);
    }

    @Test
    void aLostSlotIsDownWhileAMissingSlotNobodyEverReadIsOnlyDegraded() {
        assertThat(THRESHOLDS.classify(new CaptureLag(false, false, 0, 0, NOW, 0, NOW.minusSeconds(5), true),
                Duration.ZERO)).as("missing, offsets committed").isEqualTo(Status.DOWN);
        assertThat(THRESHOLDS.classify(new CaptureLag(true, true, 0, 0, NOW, 0, NOW, true), Duration.ZERO))
                .as("invalidated or being recovered, even while read").isEqualTo(Status.DOWN);
        assertThat(THRESHOLDS.classify(CaptureLag.noSlot(NOW, 0), Duration.ZERO))
                .as("not made yet").isEqualTo(OutboxHealthThresholds.DEGRADED);
    }

    @Test
    void theOldestUnconfirmedChangeTurnsItDegradedAfterOneThresholdAndDownAfterTheOther() {
        CaptureLag smallLag = lag(true, 1024, 4096);

        assertThat(status(smallLag, 60)).as("at the threshold").isEqualTo(Status.UP);
        assertThat(status(smallLag, 61)).isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(status(smallLag, 15 * 60)).isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(status(smallLag, 15 * 60 + 1)).isEqualTo(Status.DOWN);
    }

    @Test
    void gaugesAndHealthReadTheLastMeasurementAndAFailedOneIsUnknown() {
        AtomicReference<CaptureLag> lag = new AtomicReference<>(
                new CaptureLag(true, true, 2048, 8192, NOW, 10_000, NOW.minusSeconds(90)));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (CdcLagMonitor monitor = new CdcLagMonitor(() -> {
            CaptureLag value = lag.get();
            if (value == null) {
                throw new IllegalStateException("database down");
            }
            return value;
        }, THRESHOLDS, Duration.ofHours(1), registry)) {
            monitor.measure();

            assertThat(registry.get("ordering.outbox.cdc.lag.bytes").gauge().value()).isEqualTo(2048);
            assertThat(registry.get("ordering.outbox.cdc.retained.wal.bytes").gauge().value()).isEqualTo(8192);
            assertThat(registry.get("ordering.outbox.cdc.reading").gauge().value()).isEqualTo(1);
            assertThat(registry.get("ordering.outbox.cdc.oldest.unconfirmed.age").gauge().value())
                    .as("unconfirmed WAL since the reader's last commit").isEqualTo(90);
            assertThat(monitor.health().getStatus()).isEqualTo(OutboxHealthThresholds.DEGRADED);
            assertThat(monitor.health().getDetails()).containsEntry("lagBytes", 2048L).containsEntry("relay", "cdc")
                    .containsEntry("oldestUnconfirmedAgeSeconds", 90.0);

            lag.set(new CaptureLag(true, true, 0, 8192, NOW.plusSeconds(5), 10_000, NOW));
            monitor.measure();
            assertThat(registry.get("ordering.outbox.cdc.oldest.unconfirmed.age").gauge().value()).isZero();
            assertThat(monitor.health().getStatus()).isEqualTo(Status.UP);

            lag.set(null);
            monitor.measure();
            assertThat(monitor.health().getStatus()).isEqualTo(Status.UNKNOWN);
        }
    }

    private static CaptureLag lag(boolean reading, long lagBytes, long retainedWalBytes) {
        return new CaptureLag(true, reading, lagBytes, retainedWalBytes, NOW, 1L << 30, NOW);
    }

    private static Status status(CaptureLag lag, int ageSeconds) {
        return THRESHOLDS.classify(lag, Duration.ofSeconds(ageSeconds));
    }
}
