package dev.bookstore.ordering.bootstrap.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.capture.CaptureLag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.util.unit.DataSize;

/** The cdc mode's outbox health and gauges from the slot's lag and retained WAL. */
class CdcLagMonitorTest {

    private static final CdcLagMonitor.Thresholds THRESHOLDS = new CdcLagMonitor.Thresholds(DataSize.ofMegabytes(64),
            DataSize.ofGigabytes(1), DataSize.ofGigabytes(1), DataSize.ofGigabytes(8));

    @Test
    void theStatusFollowsTheLagTheRetainedWalAndWhetherAnyoneReads() {
        assertThat(THRESHOLDS.classify(new CaptureLag(true, true, 1024, 4096))).isEqualTo(Status.UP);
        assertThat(THRESHOLDS.classify(new CaptureLag(true, false, 0, 0))).as("nobody reads the slot")
                .isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(THRESHOLDS.classify(CaptureLag.NO_SLOT)).isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(THRESHOLDS.classify(new CaptureLag(true, true, DataSize.ofMegabytes(65).toBytes(), 0)))
                .isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(THRESHOLDS.classify(new CaptureLag(true, true, 0, DataSize.ofGigabytes(2).toBytes())))
                .isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(THRESHOLDS.classify(new CaptureLag(true, true, DataSize.ofGigabytes(2).toBytes(), 0)))
                .isEqualTo(Status.DOWN);
        assertThat(THRESHOLDS.classify(new CaptureLag(true, true, 0, DataSize.ofGigabytes(9).toBytes())))
                .isEqualTo(Status.DOWN);
    }

    @Test
    void gaugesAndHealthReadTheLastMeasurementAndAFailedOneIsUnknown() {
        AtomicReference<CaptureLag> lag = new AtomicReference<>(new CaptureLag(true, true, 2048, 8192));
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
            assertThat(monitor.health().getStatus()).isEqualTo(Status.UP);
            assertThat(monitor.health().getDetails()).containsEntry("lagBytes", 2048L).containsEntry("relay", "cdc");

            lag.set(null);
            monitor.measure();
            assertThat(monitor.health().getStatus()).isEqualTo(Status.UNKNOWN);
        }
    }
}
