package dev.bookstore.ordering.bootstrap.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.cdc.CdcRelay;
import dev.bookstore.ordering.adapters.persistence.outbox.PostgresCaptureLagProbe;
import dev.bookstore.ordering.application.outbox.capture.CaptureSettings;
import dev.bookstore.ordering.application.outbox.relay.Backoff;
import dev.bookstore.ordering.application.outbox.relay.RelaySettings.Unroutable;
import dev.bookstore.ordering.bootstrap.observability.CdcLagMonitor;
import dev.bookstore.ordering.bootstrap.observability.OutboxHealthThresholds;
import dev.bookstore.ordering.testing.TcpProxy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.boot.health.contributor.Status;
import org.springframework.util.unit.DataSize;

/**
 * The cdc mode's {@code outbox} health and the age of the oldest unconfirmed change on an embedded PostgreSQL with
 * {@code wal_level=logical} and the real RabbitMQ: young while the reader keeps up, also on a quiet outbox while
 * other tables write WAL (the connector's heartbeat, every second, confirms it), and past the thresholds while the
 * reader is stopped or the broker is away.
 */
class CdcLagMonitorIT {

    private static final Duration AGE_DEGRADED = Duration.ofSeconds(6);
    private static final Duration AGE_DOWN = Duration.ofSeconds(14);
    private static final Duration REFRESH = Duration.ofMillis(250);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicInteger orders = new AtomicInteger();
    private CdcTestBed bed;
    private CdcLagMonitor monitor;
    private CdcRelay relay;
    private TcpProxy proxy;
    private CachingConnectionFactory throughProxy;

    @BeforeEach
    void bedAndMonitor() throws Exception {
        bed = CdcTestBed.create();
        bed.jdbc().execute("CREATE TABLE unrelated_writes (n integer)");
        proxy = new TcpProxy(bed.broker().host(), bed.broker().port()).start();
        throughProxy = bed.broker().connectionFactory("127.0.0.1", proxy.port());
        monitor = new CdcLagMonitor(new PostgresCaptureLagProbe(bed.jdbc().getDataSource(), bed.slot()),
                new CdcLagMonitor.Thresholds(DataSize.ofGigabytes(1), DataSize.ofGigabytes(2), AGE_DEGRADED,
                        AGE_DOWN, DataSize.ofGigabytes(1), DataSize.ofGigabytes(2)), REFRESH, registry);
        relay = bed.relay("a", Duration.ofMillis(500), throughProxy, new CaptureSettings(Duration.ofSeconds(5), 10,
                new Backoff(Duration.ofMillis(100), Duration.ofMillis(400), () -> 1.0), Duration.ofMillis(200),
                Unroutable.RETRY), UnaryOperator.identity());
        relay.start();
        bed.awaitReading();
    }

    @AfterEach
    void stopEverything() throws Exception {
        monitor.close();
        relay.close();
        proxy.close();
        throughProxy.destroy();
        bed.close();
    }

    @Test
    void theAgeStaysLowWhileTheReaderKeepsUpAndPassesTheThresholdOnceItIsStopped() {
        await().atMost(Duration.ofSeconds(30)).until(() -> monitor.health().getStatus().equals(Status.UP));

        // Orders, then a quiet outbox while another table writes WAL: the slot is rarely caught up to the byte.
        await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(300))
                .until(() -> {
                    bed.insert("order-" + orders.incrementAndGet() % 5, "order.placed");
                    return youngAndUp();
                });
        AtomicBoolean behind = new AtomicBoolean();
        // 12 s in a row (a dozen heartbeats), within 30 s: one engine restart on a starved CI machine (the samples
        // printed name the cause) may pass.
        await().during(Duration.ofSeconds(12)).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> {
                    bed.jdbc().update("INSERT INTO unrelated_writes VALUES (1)");
                    behind.compareAndSet(false, lagBytes() > 0);
                    return youngAndUp();
                });
        assertThat(behind).as("other WAL written after a confirm, seen at least once").isTrue();

        relay.close();
        bed.insert("order-1", "order.cancelled");
        await().atMost(AGE_DEGRADED.plusSeconds(15)).until(() -> age() > AGE_DEGRADED.toSeconds());
        assertThat(monitor.health().getStatus()).isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(monitor.health().getDetails()).containsEntry("reading", false);
    }

    @Test
    void whileTheBrokerIsAwayTheAgeTurnsTheReadingSlotDegradedThenDownAndRecoversOnceItIsBack() {
        String before = bed.insert("order-1", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> receivedId(before));
        await().atMost(Duration.ofSeconds(30)).until(() -> monitor.health().getStatus().equals(Status.UP));

        proxy.cut();
        bed.insert("order-1", "order.cancelled");
        await().atMost(AGE_DEGRADED.plusSeconds(15))
                .until(() -> monitor.health().getStatus().equals(OutboxHealthThresholds.DEGRADED));
        assertThat(monitor.health().getDetails()).as("the reader still streams; the age alone degrades it")
                .containsEntry("reading", true);
        assertThat(age()).isGreaterThan(AGE_DEGRADED.toSeconds());
        await().atMost(AGE_DOWN.minus(AGE_DEGRADED).plusSeconds(15))
                .until(() -> monitor.health().getStatus().equals(Status.DOWN));

        proxy.restore();
        await().atMost(Duration.ofSeconds(60)).until(() -> monitor.health().getStatus().equals(Status.UP));
        assertThat(age()).isLessThan(AGE_DEGRADED.toSeconds());
    }

    private boolean youngAndUp() {
        var health = monitor.health();
        boolean young = age() < AGE_DEGRADED.toSeconds() && health.getStatus().equals(Status.UP);
        if (!young) {
            System.err.printf("CdcLagMonitorIT: age %.3f s, %s %s%n", age(), health.getStatus(), health.getDetails());
        }
        return young;
    }

    private double age() {
        return registry.get("ordering.outbox.cdc.oldest.unconfirmed.age").gauge().value();
    }

    private double lagBytes() {
        return registry.get("ordering.outbox.cdc.lag.bytes").gauge().value();
    }

    private boolean receivedId(String id) {
        var message = bed.receive();
        return message != null && id.equals(message.getMessageProperties().getMessageId());
    }
}
