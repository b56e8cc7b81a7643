package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.testing.TcpProxy;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The database out of reach, made with a TCP proxy in front of the real PostgreSQL or MariaDB (which keeps
 * running): readiness goes DOWN so the load balancer stops sending requests, and {@code POST /orders} answers 503 with
 * {@code Retry-After} within the pool's connection timeout instead of a 500 after half a minute.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(TestEngine.class)
class DatabaseOutageIT {

    @Parameter
    TestEngine engine;

    private static final Duration CONNECTION_TIMEOUT = Duration.ofMillis(1500);

    private TestDatabase database;
    private TcpProxy proxy;
    private ServiceInstance instance;
    private TestRabbit.Broker broker;
    private final String exchange = TestRabbit.uniqueExchange();

    @BeforeEach
    void startBehindAProxyToTheDatabase() {
        database = engine.newDatabase();
        URI url = URI.create(database.url().substring("jdbc:".length()));
        proxy = new TcpProxy(url.getHost(), url.getPort()).start();
        String proxied = "jdbc:" + url.getScheme() + "://127.0.0.1:" + proxy.port() + url.getPath()
                + (url.getQuery() == null ? "" : "?" + url.getQuery());
        broker = TestRabbit.broker();
        instance = ServiceInstance.start(
                new TestDatabase(proxied, database.username(), database.password(), database.name()),
                broker.host(), broker.port(), exchange, Map.of(
                        "spring.rabbitmq.username", broker.username(),
                        "spring.rabbitmq.password", broker.password(),
                        "spring.datasource.hikari.connection-timeout", String.valueOf(CONNECTION_TIMEOUT.toMillis()),
                        "ordering.outbox.stats.refresh-interval", "200ms"));
    }

    @AfterEach
    void stopEverything() {
        instance.close();
        broker.delete(List.of(exchange), List.of());
        proxy.close();
        database.drop();
    }

    @Test
    void withTheDatabaseCutOffReadinessGoesDownAndOrdersAnswer503WithRetryAfterWithinTheTimeout() {
        HttpJson probe = instance.http.anonymous();
        assertThat(probe.get("/actuator/health/readiness").json().get("status").asString()).isEqualTo("UP");
        assertThat(placeOrder().status()).isEqualTo(201);

        proxy.cut();

        await().atMost(Duration.ofSeconds(20)).until(() -> probe.get("/actuator/health/readiness").status() == 503);
        assertThat(probe.get("/actuator/health/readiness").json().get("status").asString()).isEqualTo("DOWN");
        assertThat(probe.get("/actuator/health/liveness").status()).as("alive: no restart helps").isEqualTo(200);

        long started = System.nanoTime();
        HttpJson.Response refused = placeOrder();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.header("Retry-After")).isEqualTo("5");
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.json().get("status").asInt()).isEqualTo(503);
        assertThat(refused.json().get("title").asString()).isEqualTo("Service unavailable");
        assertThat(refused.body()).doesNotContain("Exception").doesNotContain("jdbc");
        assertThat(took).as("answered within the connection timeout, plus the request's own time")
                .isLessThan(CONNECTION_TIMEOUT.plusSeconds(2));

        proxy.restore();
        await().atMost(Duration.ofSeconds(30)).until(() -> probe.get("/actuator/health/readiness").status() == 200);
        assertThat(placeOrder().status()).isEqualTo(201);
    }

    private HttpJson.Response placeOrder() {
        return instance.http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 1));
    }
}
