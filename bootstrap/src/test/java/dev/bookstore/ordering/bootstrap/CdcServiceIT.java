package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.bootstrap.cdc.LogicalPostgres;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AnonymousQueue;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The service with {@code ordering.outbox.relay=cdc} on an embedded PostgreSQL with {@code wal_level=logical}: an
 * order placed over HTTP reaches the broker through the WAL, as the same AMQP message the polling relay sends for
 * the same outbox row. The row stays pending in cdc mode, so a polling instance started afterwards sends it too,
 * and the two messages are compared.
 */
class CdcServiceIT {

    private TestDatabase database;
    private JdbcTemplate jdbc;
    private TestRabbit.Broker broker;
    private CachingConnectionFactory consumerConnection;
    private RabbitAdmin admin;
    private String exchange;
    private Queue queue;
    private String slot;

    @BeforeEach
    void databaseExchangeAndQueue() {
        broker = TestRabbit.broker();
        database = LogicalPostgres.newMigratedDatabase();
        jdbc = new JdbcTemplate(new DriverManagerDataSource(database.url(), database.username(),
                database.password()));
        slot = "svc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
        consumerConnection = broker.connectionFactory();
        admin = new RabbitAdmin(consumerConnection);
        exchange = TestRabbit.uniqueExchange();
        queue = new AnonymousQueue();
        TopicExchange topic = new TopicExchange(exchange, true, false);
        admin.declareExchange(topic);
        admin.declareQueue(queue);
        admin.declareBinding(BindingBuilder.bind(queue).to(topic).with("order.#"));
    }

    @AfterEach
    void cleanUp() {
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active", Integer.class, slot) == 0);
        jdbc.queryForList("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ?",
                slot);
        admin.deleteQueue(queue.getName());
        admin.deleteExchange(exchange);
        consumerConnection.destroy();
    }

    @Test
    void anOrderLeavesThroughTheWalAsTheSameMessageThePollingRelaySends() {
        Message viaCdc;
        String orderId;
        try (ServiceInstance cdc = start(Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.cdc.slot-name", slot))) {
            await().atMost(Duration.ofSeconds(60)).until(() -> jdbc.queryForObject(
                    "SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active", Integer.class,
                    slot) == 1);
            HttpJson.Response placed = cdc.http.postJson("/orders",
                    HttpJson.orderJson(UUID.randomUUID().toString(), 2));
            assertThat(placed.status()).isEqualTo(201);
            orderId = placed.json().get("id").asString();
            viaCdc = await().atMost(Duration.ofSeconds(60)).until(this::receive, message -> message != null);
        }
        assertThat(jdbc.queryForObject("SELECT status FROM outbox_message", String.class))
                .as("cdc mode never updates the row").isEqualTo("PENDING");

        Message viaPolling;
        try (ServiceInstance polling = start(Map.of("ordering.outbox.relay", "polling"))) {
            viaPolling = await().atMost(Duration.ofSeconds(60)).until(this::receive, message -> message != null);
        }

        MessageProperties cdc = viaCdc.getMessageProperties();
        MessageProperties poll = viaPolling.getMessageProperties();
        assertThat(cdc.getMessageId()).isEqualTo(jdbc.queryForObject("SELECT id::text FROM outbox_message",
                String.class)).isEqualTo(poll.getMessageId());
        assertThat(cdc.getCorrelationId()).isEqualTo(orderId).isEqualTo(poll.getCorrelationId());
        assertThat(cdc.getType()).isEqualTo("bookstore.order-placed.v1").isEqualTo(poll.getType());
        assertThat(cdc.getContentType()).isEqualTo(poll.getContentType());
        assertThat(cdc.getContentEncoding()).isEqualTo(poll.getContentEncoding());
        assertThat(cdc.getReceivedDeliveryMode()).isEqualTo(poll.getReceivedDeliveryMode());
        assertThat(cdc.getTimestamp()).isEqualTo(poll.getTimestamp());
        assertThat(cdc.getAppId()).isEqualTo(poll.getAppId());
        assertThat(cdc.getReceivedRoutingKey()).isEqualTo("order.placed").isEqualTo(poll.getReceivedRoutingKey());
        assertThat(cdc.getHeaders().keySet()).isEqualTo(poll.getHeaders().keySet());
        assertThat(withoutSpan(cdc.getHeaders())).isEqualTo(withoutSpan(poll.getHeaders()));
        assertThat(viaCdc.getBody()).isEqualTo(viaPolling.getBody());
    }

    /** Each send is a producer span of its own: the trace is the row's, the span id differs per send. */
    private static Map<String, Object> withoutSpan(Map<String, Object> headers) {
        Map<String, Object> copy = new HashMap<>(headers);
        Object traceparent = copy.get("traceparent");
        if (traceparent != null) {
            copy.put("traceparent", traceparent.toString().split("-")[1]);
        }
        return copy;
    }

    private Message receive() {
        return new RabbitTemplate(consumerConnection).receive(queue.getName());
    }

    private ServiceInstance start(Map<String, String> overrides) {
        Map<String, String> properties = new HashMap<>(overrides);
        properties.put("spring.rabbitmq.username", broker.username());
        properties.put("spring.rabbitmq.password", broker.password());
        return ServiceInstance.start(database, broker.host(), broker.port(), exchange, properties);
    }
}
