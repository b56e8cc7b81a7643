package dev.bookstore.ordering.bootstrap.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.bookstore.ordering.bootstrap.HttpJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.env.Environment;

/**
 * The first run of someone who just cloned the repository: the try-out run with nothing else — no PostgreSQL, no
 * RabbitMQ, no settings — places an order over HTTP, and the message arrives at the embedded broker and at the
 * demo consumer. A second start on the same data directory still has the order.
 */
class LocalProfileIT {

    private static final String EXCHANGE = "bookstore.ordering";

    @TempDir
    Path dataDirectory;

    @Test
    void theTryOutRunRunsThePatternWithNothingInstalledAndKeepsOrdersAcrossARestart() throws Exception {
        String orderId;
        try (LocalApp app = LocalApp.start(dataDirectory)) {
            Environment environment = app.context.getEnvironment();
            assertThat(environment.getActiveProfiles()).containsExactly(TryOutConfiguration.PROFILE);

            LocalInfrastructure infrastructure = app.bean(LocalInfrastructure.class);
            int databasePort = infrastructure.databasePort().orElseThrow();
            int brokerPort = infrastructure.brokerPort().orElseThrow();
            assertThat(infrastructure.dataDirectory()).isEqualTo(dataDirectory.toAbsolutePath());
            assertThat(dataDirectory.resolve("postgres").resolve("PG_VERSION")).isRegularFile();
            assertThat(environment.getProperty("spring.datasource.url"))
                    .isEqualTo("jdbc:postgresql://127.0.0.1:" + databasePort + "/ordering");
            assertThat(environment.getProperty("spring.rabbitmq.port", Integer.class)).isEqualTo(brokerPort);

            try (Connection connection = brokerConnection(brokerPort);
                 Channel channel = connection.createChannel()) {
                channel.exchangeDeclarePassive(EXCHANGE); // the service declared its topology on the embedded broker
                String queue = channel.queueDeclare("local-it." + UUID.randomUUID(), false, true, true, null)
                        .getQueue();
                channel.queueBind(queue, EXCHANGE, "order.#");

                HttpJson.Response placed = app.http.postJson("/orders",
                        HttpJson.orderJson(TryOutTokens.DEMO_CUSTOMER.toString(), 2));
                assertThat(placed.status()).isEqualTo(201);
                orderId = placed.json().get("id").asString();

                GetResponse message = await().atMost(Duration.ofSeconds(20))
                        .until(() -> channel.basicGet(queue, true), Objects::nonNull);
                assertThat(message.getProps().getType()).isEqualTo("bookstore.order-placed.v1");
                assertThat(message.getProps().getCorrelationId()).isEqualTo(orderId);
                assertThat(message.getEnvelope().getRoutingKey()).isEqualTo("order.placed");
                assertThat(new String(message.getBody(), StandardCharsets.UTF_8)).contains(orderId);

                // the embedded broker takes no dead-letter arguments: the demo consumer's inbox listener moves a
                // message it cannot take to the dead-letter queue it declared, with the reason
                channel.basicPublish(EXCHANGE, "order.placed",
                        new AMQP.BasicProperties.Builder().type("bookstore.order-placed.v1").build(),
                        "{}".getBytes(StandardCharsets.UTF_8));
                GetResponse dead = await().atMost(Duration.ofSeconds(20))
                        .until(() -> channel.basicGet(TryOutConfiguration.DEMO_QUEUE + ".dlq", true),
                                Objects::nonNull);
                assertThat(String.valueOf(dead.getProps().getHeaders().get("x-exception-message")))
                        .contains("without message_id");
            }

            DemoConsumer demoConsumer = app.bean(DemoConsumer.class);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> demoConsumer.recentOrderIds().contains(UUID.fromString(orderId)));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                HttpJson.Response stats = app.http.get("/outbox/stats");
                assertThat(stats.json().get("pending").asLong()).isZero();
                assertThat(stats.json().get("published").asLong()).isEqualTo(1);
            });
            HttpJson.Response relay = app.http.get("/outbox/relay");
            assertThat(relay.status()).isEqualTo(200);
            assertThat(relay.json().get("paused").asBoolean()).isFalse();
            assertThat(relay.json().get("demoConsumerReceived").asLong()).isEqualTo(1);

            // the try-out run's demo tokens are the only way in: without one, 401; a plain customer's token
            // (scope orders) is not an operator's
            assertThat(app.http.anonymous().get("/orders").status()).isEqualTo(401);
            String customerOnly = app.http.anonymous().get("/try-out/token?customer=" + UUID.randomUUID()
                    + "&scope=orders").body().strip();
            assertThat(app.http.as(customerOnly).get("/outbox/stats").status()).isEqualTo(403);
            assertThat(app.http.as(customerOnly).get("/orders").json()).isEmpty();

            // the probes a Kubernetes deployment points at (application.yml, the same as in production)
            assertThat(app.http.get("/actuator/health/liveness").json().get("status").asString()).isEqualTo("UP");
            assertThat(app.http.get("/actuator/health/readiness").json().get("status").asString()).isEqualTo("UP");
        }

        try (LocalApp restarted = LocalApp.start(dataDirectory)) {
            HttpJson.Response order = restarted.http.get("/orders/" + orderId);
            assertThat(order.status()).isEqualTo(200);
            assertThat(order.json().get("total").asString()).isEqualTo("39.80");
            assertThat(restarted.http.get("/outbox/stats").json().get("published").asLong()).isEqualTo(1);
            assertThat(restarted.bean(LocalInfrastructure.class).brokerPort()).isPresent();
        }
    }

    private static Connection brokerConnection(int port) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setPort(port);
        factory.setUsername("guest");
        factory.setPassword("guest");
        factory.setAutomaticRecoveryEnabled(false);
        return factory.newConnection("local-profile-it");
    }
}
