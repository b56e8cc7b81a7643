package dev.bookstore.ordering.bootstrap.benchmark;

import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.cdc.CdcRelay;
import dev.bookstore.ordering.adapters.cdc.CdcSettings;
import dev.bookstore.ordering.adapters.cdc.DatabaseConnection;
import dev.bookstore.ordering.adapters.cdc.JdbcCapturedMessageParking;
import dev.bookstore.ordering.adapters.messaging.outbound.RabbitMessagePublisher;
import dev.bookstore.ordering.adapters.persistence.outbox.PostgresCaptureLagProbe;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.application.outbox.capture.CaptureSettings;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesService;
import dev.bookstore.ordering.application.outbox.relay.Backoff;
import dev.bookstore.ordering.application.outbox.relay.RelayMetrics;
import dev.bookstore.ordering.application.outbox.relay.RelaySettings.Unroutable;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The CDC relay ({@link CdcRelay}, Debezium's embedded engine) wired as the service wires it, with the service's
 * default settings, reading a backlog from the write-ahead log. Every drain gets a slot of its own, made before
 * the rows are seeded ({@link #beforeSeeding}: the relay reads only what is committed after its slot was made),
 * so no drain reads the WAL of another. {@link #drainAll()} starts the relay and returns once the queue holds as
 * many messages as were seeded; {@link #afterDrain()} stops it and drops the slot.
 */
final class CdcBenchmarkRelay implements BenchmarkRelay {

    private final String name;
    private final TestDatabase database;
    private final JdbcTemplate jdbc;
    private final ProjectRelay.TimedPublisher publisher;
    private final RelayCapturedMessagesService service;
    private final BenchmarkQueue queue;
    private CdcRelay relay;
    private String slot;
    private int expected;
    private int drains;
    private long startNanos;

    CdcBenchmarkRelay(String name, TestDatabase database, DataSource dataSource, ConnectionFactory connectionFactory,
                      BenchmarkQueue queue) {
        this.name = name;
        this.database = database;
        this.jdbc = new JdbcTemplate(dataSource);
        this.queue = queue;
        this.publisher = new ProjectRelay.TimedPublisher(new RabbitMessagePublisher(connectionFactory));
        // the ordering.outbox.* defaults: confirm timeout 10 s, 10 attempts, backoff 1 s to 5 min, broker probe 200 ms
        this.service = new RelayCapturedMessagesService(publisher, new JdbcCapturedMessageParking(dataSource),
                new CaptureSettings(Duration.ofSeconds(10), 10,
                        Backoff.exponential(Duration.ofSeconds(1), Duration.ofMinutes(5)), Duration.ofMillis(200),
                        Unroutable.RETRY), Clock.systemUTC(), RelayMetrics.NONE);
    }

    @Override
    public String name() {
        return name;
    }

    /** Rows stay pending in cdc mode; the retention deletes them. */
    @Override
    public boolean marksPublished() {
        return false;
    }

    /** How long the last drain took from the relay's start to its first message in the queue. */
    long startNanos() {
        return startNanos;
    }

    @Override
    public void beforeSeeding(int messages) {
        expected = messages;
        slot = "relay_benchmark_" + ++drains;
        jdbc.queryForList("SELECT pg_create_logical_replication_slot(?, 'pgoutput')", slot);
    }

    @Override
    public Phases drainAll() {
        Phases phases = new Phases();
        publisher.phases = phases;
        long started = System.nanoTime();
        // the service's defaults: leader poll 1 s, engine restart backoff 1 s to 1 min
        relay = new CdcRelay(new CdcSettings(new DatabaseConnection(database.url(), database.username(),
                database.password(), Map.of()), "public", slot, "relay-benchmark", Duration.ofSeconds(1),
                Backoff.exponential(Duration.ofSeconds(1), Duration.ofMinutes(1)), null), service, service,
                new PostgresCaptureLagProbe(jdbc.getDataSource(), slot));
        relay.start();
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(10)).until(() -> queue.depth() > 0);
        startNanos = System.nanoTime() - started;
        await().atMost(Duration.ofMinutes(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> queue.depth() >= expected);
        return phases;
    }

    @Override
    public void afterDrain() {
        relay.close();
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active", Integer.class, slot) == 0);
        jdbc.queryForList("SELECT pg_drop_replication_slot(?)", slot);
        jdbc.update("DELETE FROM outbox_cdc_offset WHERE slot_name = ?", slot);
    }
}
