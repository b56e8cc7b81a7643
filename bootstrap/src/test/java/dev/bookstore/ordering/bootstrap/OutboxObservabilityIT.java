package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.bootstrap.observability.OutboxStatsSnapshot;
import dev.bookstore.ordering.testing.TcpProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The outbox as operators watch it, on each engine (PostgreSQL, MariaDB) and the real RabbitMQ: the Prometheus gauges, counters and
 * timers, and the {@code outbox} health component going UP → DEGRADED → DOWN → UP while the broker is cut off with a
 * TCP proxy (the machine's broker is never stopped) and readiness stays UP all along.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(TestEngine.class)
class OutboxObservabilityIT {

    @Parameter
    TestEngine engine;

    /**
     * Small thresholds and a fast snapshot, so the test sees every state within seconds. A quiet outbox is counted
     * every second: the first pending row after a quiet spell shows within that second (10 s by default).
     */
    private static final Map<String, String> FAST = Map.of(
            "ordering.outbox.stats.refresh-interval", "200ms",
            "ordering.outbox.stats.idle-refresh-interval", "1s",
            "ordering.outbox.health.degraded-after", "1s",
            "ordering.outbox.health.down-after", "3s");

    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private TestDatabase database;
    private JdbcTemplate jdbc;
    private TestRabbit.Broker broker;
    private RabbitAdmin admin;
    private String exchange;
    private Queue queue;

    @BeforeEach
    void freshDatabaseExchangeAndQueue() {
        OutboxTestBed bed = OutboxTestBed.create(engine);
        database = bed.database();
        jdbc = bed.jdbc();
        broker = bed.broker();
        admin = bed.admin();
        exchange = bed.exchange();
        queue = bed.queue();
        cleanup.add(bed);
    }

    @AfterEach
    void stopEverything() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    private ServiceInstance start(int rabbitPort, Map<String, String> overrides) {
        Map<String, String> properties = new HashMap<>(FAST);
        properties.putAll(overrides);
        properties.put("spring.rabbitmq.username", broker.username());
        properties.put("spring.rabbitmq.password", broker.password());
        ServiceInstance instance = ServiceInstance.start(database, broker.host(), rabbitPort, exchange, properties);
        cleanup.add(instance);
        return instance;
    }

    private TcpProxy proxyToBroker() {
        TcpProxy proxy = new TcpProxy(broker.host(), broker.port()).start();
        cleanup.add(proxy);
        return proxy;
    }

    @Test
    void onAQuietInstanceAnOrderPlacedThereShowsAsPendingWithinTheRefreshIntervalNotTheIdleOne() {
        // No relay here: only the order's commit can end the quiet interval.
        ServiceInstance instance = start(broker.port(), Map.of(
                "ordering.outbox.relay", "none",
                "ordering.outbox.stats.refresh-interval", "2s",
                "ordering.outbox.stats.idle-refresh-interval", "5m"));
        OutboxStatsSnapshot snapshot = instance.bean(OutboxStatsSnapshot.class);
        Instant firstCount = snapshot.current().countedAt();
        // the second count finds the same numbers: quiet, the next count is five minutes away
        await().atMost(Duration.ofSeconds(10)).until(() -> !firstCount.equals(snapshot.current().countedAt()));
        Instant quietSince = snapshot.current().countedAt();

        assertThat(instance.http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 1))
                .status()).isEqualTo(201);
        long placed = System.nanoTime();

        await().atMost(Duration.ofSeconds(4)).pollInterval(Duration.ofMillis(50))
                .until(() -> instance.http.get("/outbox/stats").json().get("pending").asLong() == 1);
        System.out.printf("quiet instance: the order showed as pending %d ms after it was placed%n",
                Duration.ofNanos(System.nanoTime() - placed).toMillis());
        assertThat(Duration.between(quietSince, snapshot.current().countedAt())).isLessThan(Duration.ofMinutes(1));
    }

    @Test
    void theGaugesFollowRowsAddedPublishedAndParkedAndAScrapeInsideTheNetworkNeedsNoToken() {
        int managementPort = freePort();
        TcpProxy proxy = proxyToBroker();
        ServiceInstance instance = start(proxy.port(), Map.of(
                "management.server.port", String.valueOf(managementPort),
                "ordering.outbox.max-attempts", "1"));
        HttpJson insideTheNetwork = new HttpJson(managementPort).anonymous();
        Prometheus prometheus = new Prometheus(insideTheNetwork);
        assertThat(prometheus.value("ordering_outbox_pending")).isZero();

        // added: the broker is away, three orders wait
        proxy.cut();
        for (int i = 0; i < 3; i++) {
            assertThat(instance.http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 1))
                    .status()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> prometheus.value("ordering_outbox_pending") == 3);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> prometheus.value("ordering_outbox_oldest_pending_age_seconds") > 0.5);
        assertThat(prometheus.value("ordering_outbox_messages_failed_total", "reason=\"broker_unavailable\""))
                .isPositive();
        // the same snapshot behind /outbox/stats
        assertThat(instance.http.get("/outbox/stats").json().get("pending").asLong()).isEqualTo(3);

        // published: the broker is back
        proxy.restore();
        await().atMost(Duration.ofSeconds(30)).until(() -> prometheus.value("ordering_outbox_pending") == 0);
        assertThat(prometheus.value("ordering_outbox_oldest_pending_age_seconds")).isZero();
        assertThat(prometheus.value("ordering_outbox_messages_published_total")).isEqualTo(3);
        assertThat(prometheus.value("ordering_outbox_commit_to_confirm_seconds_count")).isEqualTo(3);
        assertThat(prometheus.value("ordering_outbox_publish_to_confirm_seconds_count")).isEqualTo(3);
        assertThat(prometheus.value("ordering_outbox_commit_to_confirm_seconds_sum")).isPositive();
        assertThat(prometheus.value("ordering_outbox_commit_to_confirm_seconds_bucket", "le=\"+Inf\""))
                .as("histogram buckets for quantiles in PromQL").isEqualTo(3);

        // parked: a message for an exchange that does not exist fails its only attempt
        jdbc.update("""
                INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                            occurred_at)
                VALUES (?, 'order', ?, 'bookstore.order-placed.v1', ?, 'order.placed', %s, %s)"""
                .formatted(engine.json("'{}'"), engine.now()),
                engine.database().id(UUID.randomUUID()), UUID.randomUUID().toString(),
                "missing-exchange-" + UUID.randomUUID());
        await().atMost(Duration.ofSeconds(20)).until(() -> prometheus.value("ordering_outbox_parked") == 1);
        assertThat(prometheus.value("ordering_outbox_pending")).isZero();
        assertThat(prometheus.value("ordering_outbox_messages_parked_total")).isEqualTo(1);
        assertThat(instance.http.get("/outbox/stats").json().get("parked").asLong()).isEqualTo(1);

        // the public port serves no actuator once it has a port of its own
        assertThat(instance.http.get("/actuator/prometheus").status()).isEqualTo(404);
    }

    @Test
    void theOutboxComponentGoesUpDegradedDownAndUpAgainWithTheBrokerWhileReadinessStaysUp() {
        TcpProxy proxy = proxyToBroker();
        ServiceInstance instance = start(proxy.port(), Map.of());
        HttpJson probe = instance.http.anonymous();
        // without a management port of its own, the metrics are an operator's: no token, no metrics
        assertThat(probe.get("/actuator/prometheus").status()).isEqualTo(401);
        assertThat(instance.http.get("/actuator/prometheus").body()).contains("ordering_outbox_pending");
        assertThat(outbox(instance).status()).isEqualTo(200);
        assertThat(outbox(instance).json().get("status").asString()).isEqualTo("UP");

        proxy.cut();
        assertThat(instance.http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 1)).status())
                .isEqualTo(201);

        await().atMost(Duration.ofSeconds(10)).until(() -> "DEGRADED".equals(status(outbox(instance))));
        HttpJson.Response degraded = outbox(instance);
        assertThat(degraded.status()).as("DEGRADED answers 200").isEqualTo(200);
        assertThat(degraded.json().get("details").get("pending").asLong()).isEqualTo(1);
        assertReady(probe);

        await().atMost(Duration.ofSeconds(10)).until(() -> "DOWN".equals(status(outbox(instance))));
        assertThat(outbox(instance).status()).isEqualTo(503);
        assertReady(probe);
        assertThat(probe.get("/actuator/health/liveness").json().get("status").asString()).isEqualTo("UP");
        // anonymous callers see the overall status only; the operator sees the components
        HttpJson.Response overall = probe.get("/actuator/health");
        assertThat(overall.json().get("status").asString()).isEqualTo("DOWN");
        assertThat(overall.json().has("components")).isFalse();
        assertThat(instance.http.get("/actuator/health").json().get("components").get("outbox").get("status")
                .asString()).isEqualTo("DOWN");

        proxy.restore();
        await().atMost(Duration.ofSeconds(30)).until(() -> "UP".equals(status(outbox(instance))));
        assertReady(probe);
    }

    private static HttpJson.Response outbox(ServiceInstance instance) {
        return instance.http.get("/actuator/health/outbox");
    }

    private static String status(HttpJson.Response health) {
        return health.json().get("status").asString();
    }

    private static void assertReady(HttpJson probe) {
        HttpJson.Response readiness = probe.get("/actuator/health/readiness");
        assertThat(readiness.status()).isEqualTo(200);
        assertThat(readiness.json().get("status").asString()).isEqualTo("UP");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads samples from {@code /actuator/prometheus}'s text format. */
    private record Prometheus(HttpJson http) {

        /** The sum of every sample of {@code name} whose labels contain {@code labels}. */
        double value(String name, String labels) {
            HttpJson.Response scrape = http.get("/actuator/prometheus");
            assertThat(scrape.status()).isEqualTo(200);
            double sum = 0;
            boolean found = false;
            for (String line : scrape.body().split("\n")) {
                if (line.startsWith(name + " ") || (line.startsWith(name + "{") && line.contains(labels))) {
                    sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                    found = true;
                }
            }
            assertThat(found).as("%s{%s} in the scrape", name, labels).isTrue();
            return sum;
        }

        double value(String name) {
            return value(name, "");
        }
    }
}
