package dev.bookstore.ordering.bootstrap.observability;

import dev.bookstore.ordering.application.outbox.capture.CaptureLag;
import dev.bookstore.ordering.application.outbox.capture.CaptureLagProbe;
import dev.bookstore.ordering.application.outbox.capture.UnconfirmedChangeAge;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.util.unit.DataSize;

/**
 * In cdc mode, the {@code outbox} health component and the gauges {@code ordering.outbox.cdc.lag.bytes},
 * {@code ordering.outbox.cdc.oldest.unconfirmed.age}, {@code ordering.outbox.cdc.retained.wal.bytes},
 * {@code ordering.outbox.cdc.reading} and {@code ordering.outbox.cdc.slot.lost}, from one query of the slot per refresh interval (not per scrape). UP while
 * the lag, the age of the oldest unconfirmed change and the retained WAL are below their DEGRADED thresholds and an
 * instance reads the slot; DEGRADED above them or while nobody reads; DOWN above the DOWN thresholds, and while the
 * slot is lost (missing although offsets were committed for it, invalidated by the server, or being recovered): then
 * nothing is relayed until a recovery sends the rows again (docs/cdc.md). Readiness does not include this component:
 * the instance still takes orders.
 */
public final class CdcLagMonitor implements HealthIndicator, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(CdcLagMonitor.class.getName());

    private final CaptureLagProbe probe;
    private final Thresholds thresholds;
    private final ScheduledExecutorService refresh;
    private final UnconfirmedChangeAge unconfirmed = new UnconfirmedChangeAge();
    private volatile Measured current;
    private volatile String error = "not measured yet";

    /**
     * Bytes of lag, age of the oldest unconfirmed change and bytes of retained WAL at which the component turns
     * DEGRADED and DOWN.
     */
    public record Thresholds(DataSize lagDegraded, DataSize lagDown, Duration ageDegraded, Duration ageDown,
                             DataSize retainedWalDegraded, DataSize retainedWalDown) {

        Status classify(CaptureLag lag, Duration age) {
            if (lag.slotLost() || lag.lagBytes() > lagDown.toBytes() || age.compareTo(ageDown) > 0
                    || lag.retainedWalBytes() > retainedWalDown.toBytes()) {
                return Status.DOWN;
            }
            if (!lag.reading() || lag.lagBytes() > lagDegraded.toBytes() || age.compareTo(ageDegraded) > 0
                    || lag.retainedWalBytes() > retainedWalDegraded.toBytes()) {
                return OutboxHealthThresholds.DEGRADED;
            }
            return Status.UP;
        }
    }

    /** One measurement and the age of the oldest unconfirmed change it showed. */
    private record Measured(CaptureLag lag, Duration age) {
    }

    public CdcLagMonitor(CaptureLagProbe probe, Thresholds thresholds, Duration refreshInterval,
                         MeterRegistry registry) {
        this.probe = probe;
        this.thresholds = thresholds;
        Gauge.builder("ordering.outbox.cdc.lag.bytes", this,
                        m -> m.current == null ? Double.NaN : m.current.lag().lagBytes())
                .description("WAL bytes between the CDC slot's last confirmed position and the current WAL position")
                .baseUnit("bytes").register(registry);
        Gauge.builder("ordering.outbox.cdc.oldest.unconfirmed.age", this,
                        m -> m.current == null ? Double.NaN : m.current.age().toMillis() / 1000.0)
                .description("How long the oldest change the CDC slot has not confirmed has waited, by the "
                        + "database's clock; 0 when the slot confirmed the whole WAL")
                .baseUnit("seconds").register(registry);
        Gauge.builder("ordering.outbox.cdc.retained.wal.bytes", this,
                        m -> m.current == null ? Double.NaN : m.current.lag().retainedWalBytes())
                .description("WAL bytes the server keeps for the CDC slot (from its restart_lsn)")
                .baseUnit("bytes").register(registry);
        Gauge.builder("ordering.outbox.cdc.reading", this,
                        m -> m.current == null ? Double.NaN : m.current.lag().reading() ? 1 : 0)
                .description("1 while an instance streams from the CDC slot").register(registry);
        Gauge.builder("ordering.outbox.cdc.slot.lost", this,
                        m -> m.current == null ? Double.NaN : m.current.lag().slotLost() ? 1 : 0)
                .description("1 while the CDC slot is lost (missing although offsets were committed for it, "
                        + "invalidated, or being recovered): docs/cdc.md, Recovering from a lost slot")
                .register(registry);
        this.refresh = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ordering-cdc-lag");
            thread.setDaemon(true);
            return thread;
        });
        refresh.scheduleWithFixedDelay(this::measure, 0, refreshInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void measure() {
        try {
            CaptureLag lag = probe.measure();
            current = new Measured(lag, unconfirmed.observe(lag));
            error = null;
        } catch (RuntimeException e) {
            error = e.getMessage();
            LOG.log(System.Logger.Level.DEBUG, "Cannot measure the CDC lag: {0}", e.toString());
        }
    }

    @Override
    public Health health() {
        Measured measured = current;
        if (measured == null || error != null) {
            return Health.unknown().withDetail("error", "cannot read the replication slot: " + error).build();
        }
        CaptureLag lag = measured.lag();
        return Health.status(thresholds.classify(lag, measured.age()))
                .withDetail("relay", "cdc")
                .withDetail("slotExists", lag.slotExists())
                .withDetail("slotLost", lag.slotLost())
                .withDetail("reading", lag.reading())
                .withDetail("lagBytes", lag.lagBytes())
                .withDetail("oldestUnconfirmedAgeSeconds", measured.age().toMillis() / 1000.0)
                .withDetail("retainedWalBytes", lag.retainedWalBytes())
                .withDetail("lagDegradedBytes", thresholds.lagDegraded().toBytes())
                .withDetail("lagDownBytes", thresholds.lagDown().toBytes())
                .withDetail("ageDegradedSeconds", thresholds.ageDegraded().toMillis() / 1000.0)
                .withDetail("ageDownSeconds", thresholds.ageDown().toMillis() / 1000.0)
                .withDetail("retainedWalDegradedBytes", thresholds.retainedWalDegraded().toBytes())
                .withDetail("retainedWalDownBytes", thresholds.retainedWalDown().toBytes())
                .build();
    }

    @Override
    public void close() {
        refresh.shutdownNow();
    }
}
