package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The operator's outbox API end to end on each engine (PostgreSQL, MariaDB; one subclass per engine) and the real
 * RabbitMQ: what it changes reaches a consumer's queue bound to the exchange, under the original message ids, and only
 * operators may call it.
 */
abstract class OutboxAdminContract {

    /** The engine the service runs on, a database of its own for each test. */
    protected abstract TestEngine engine();

    private OutboxTestBed bed;
    private TestDatabase database;
    private JdbcTemplate jdbc;
    private TestRabbit.Broker broker;
    private CachingConnectionFactory consumerConnection;
    private RabbitAdmin rabbit;
    private String exchange;
    private Queue queue;
    private ServiceInstance instance;
    private final List<String> receivedIds = Collections.synchronizedList(new ArrayList<>());
    private final ListAppender<ILoggingEvent> audit = new ListAppender<>();

    @BeforeEach
    void freshDatabaseExchangeAndQueue() {
        bed = OutboxTestBed.create(engine());
        database = bed.database();
        jdbc = bed.jdbc();
        broker = bed.broker();
        consumerConnection = bed.consumerConnection();
        rabbit = bed.admin();
        exchange = bed.exchange();
        queue = bed.queue();
    }

    @AfterEach
    void stopEverything() {
        ((Logger) LoggerFactory.getLogger("ordering.audit")).detachAppender(audit);
        if (instance != null) {
            instance.close();
        }
        bed.close();
    }

    private void start(Map<String, String> overrides) {
        Map<String, String> properties = new HashMap<>(overrides);
        properties.put("spring.rabbitmq.username", broker.username());
        properties.put("spring.rabbitmq.password", broker.password());
        instance = ServiceInstance.start(database, broker.host(), broker.port(), exchange, properties);
        // After the start: Boot's logging system resets Logback's configuration as the application starts.
        audit.start();
        ((Logger) LoggerFactory.getLogger("ordering.audit")).addAppender(audit);
    }

    private int drainQueue() {
        RabbitTemplate template = new RabbitTemplate(consumerConnection);
        Message message;
        while ((message = template.receive(queue.getName())) != null) {
            receivedIds.add(message.getMessageProperties().getMessageId());
        }
        return receivedIds.size();
    }

    /** A row as the relay leaves it after max-attempts failures. */
    private UUID insertParked(String aggregateId) {
        UUID id = UUID.randomUUID();
        jdbc.update("""
                INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                            occurred_at, status, attempts, last_error, parked_at)
                VALUES (?, 'order', ?, 'bookstore.order-placed.v1', ?, 'order.placed',
                        %1$s, %2$s, 'PARKED', 10, 'NACKED by the broker', %2$s)"""
                .formatted(engine().json("'{\"orderId\":\"x\"}'"), engine().now()),
                id(id), aggregateId, exchange);
        return id;
    }

    private String placeOrder() {
        HttpJson.Response response = instance.http.postJson("/orders",
                HttpJson.orderJson(UUID.randomUUID().toString(), 1));
        assertThat(response.status()).isEqualTo(201);
        return response.json().get("id").asString();
    }

    private String messageIdOf(String orderId) {
        return jdbc.queryForObject("SELECT LOWER(CAST(id AS varchar(36))) FROM outbox_message WHERE aggregate_id = ?",
                String.class, orderId);
    }

    @Test
    void aRequeuedParkedMessageIsPublishedUnderItsIdAndADiscardedOneIsGone() {
        start(Map.of());
        UUID requeued = insertParked("order-1");
        UUID discarded = insertParked("order-2");

        HttpJson.Response firstPage = instance.http.get("/admin/outbox/parked?limit=1");
        assertThat(firstPage.status()).isEqualTo(200);
        var item = firstPage.json().get("items").get(0);
        assertThat(item.get("id").asString()).isEqualTo(requeued.toString());
        assertThat(item.get("aggregateId").asString()).isEqualTo("order-1");
        assertThat(item.get("type").asString()).isEqualTo("bookstore.order-placed.v1");
        assertThat(item.get("attempts").asInt()).isEqualTo(10);
        assertThat(item.get("lastError").asString()).isEqualTo("NACKED by the broker");
        assertThat(item.get("parkedAt").isNull()).isFalse();
        HttpJson.Response secondPage = instance.http.get("/admin/outbox/parked?limit=1&after="
                + firstPage.json().get("next").asLong());
        assertThat(secondPage.json().get("items")).singleElement()
                .satisfies(next -> assertThat(next.get("id").asString()).isEqualTo(discarded.toString()));
        // A full page gives a cursor; the page after the last parked row is empty and has none.
        HttpJson.Response thirdPage = instance.http.get("/admin/outbox/parked?limit=1&after="
                + secondPage.json().get("next").asLong());
        assertThat(thirdPage.json().get("items")).isEmpty();
        assertThat(thirdPage.json().get("next").isNull()).isTrue();

        HttpJson.Response requeue = instance.http.post("/admin/outbox/parked/" + requeued + "/requeue", null, "");
        assertThat(requeue.status()).isEqualTo(202);
        assertThat(requeue.json().get("queued").asInt()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(15)).until(() -> drainQueue() == 1);
        assertThat(receivedIds).containsExactly(requeued.toString());
        await().atMost(Duration.ofSeconds(5)).until(() -> "PUBLISHED".equals(
                instance.http.get("/admin/outbox/messages/" + requeued).json().get("status").asString()));
        HttpJson.Response again = instance.http.post("/admin/outbox/parked/" + requeued + "/requeue", null, "");
        assertThat(again.status()).as("published, not parked").isEqualTo(409);
        assertThat(again.header("Content-Type")).startsWith("application/problem+json");

        assertThat(instance.http.delete("/admin/outbox/parked/" + discarded).status()).isEqualTo(204);
        assertThat(instance.http.get("/admin/outbox/messages/" + discarded).status()).isEqualTo(404);
        assertThat(instance.http.delete("/admin/outbox/parked/" + discarded).status()).isEqualTo(404);
        assertThat(instance.http.post("/admin/outbox/parked/" + UUID.randomUUID() + "/requeue", null, "").status())
                .isEqualTo(404);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> drainQueue() == 1);

        assertThat(audit.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "outbox requeue id=" + requeued + " queued=1 by=operator",
                "outbox discard id=" + discarded + " by=operator");
    }

    @Test
    void requeueingAllParkedMessagesPublishesEveryOneOfThem() {
        start(Map.of("ordering.admin.requeue-chunk", "2"));
        List<String> parked = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            parked.add(insertParked("order-" + i).toString());
        }

        HttpJson.Response all = instance.http.post("/admin/outbox/parked/requeue", null, "");

        assertThat(all.status()).isEqualTo(202);
        assertThat(all.json().get("queued").asInt()).isEqualTo(5);
        await().atMost(Duration.ofSeconds(15)).until(() -> drainQueue() == 5);
        assertThat(receivedIds).containsExactlyInAnyOrderElementsOf(parked);
        assertThat(instance.http.get("/admin/outbox/parked").json().get("items")).isEmpty();
    }

    @Test
    void aReplayResendsExactlyTheChosenMessagesWithTheirOriginalIds() {
        start(Map.of("ordering.admin.replay-max-messages", "3"));
        String first = placeOrder();
        String second = placeOrder();
        String third = placeOrder();
        await().atMost(Duration.ofSeconds(15)).until(() -> drainQueue() == 3);
        await().atMost(Duration.ofSeconds(5)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM outbox_message WHERE status = 'PUBLISHED'", Integer.class) == 3);
        receivedIds.clear();

        HttpJson.Response replay = instance.http.postJson("/admin/outbox/replay",
                "{\"aggregateType\":\"order\",\"aggregateId\":\"" + first + "\"}");
        assertThat(replay.status()).isEqualTo(202);
        assertThat(replay.json().get("queued").asInt()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(15)).until(() -> drainQueue() == 1);
        assertThat(receivedIds).containsExactly(messageIdOf(first));

        HttpJson.Response resend = instance.http.post("/admin/outbox/messages/" + messageIdOf(second) + "/resend",
                null, "");
        assertThat(resend.status()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(15)).until(() -> drainQueue() == 2);
        assertThat(receivedIds).containsExactly(messageIdOf(first), messageIdOf(second));

        Instant now = Instant.now();
        HttpJson.Response byTime = instance.http.postJson("/admin/outbox/replay",
                "{\"from\":\"" + now.minusSeconds(600) + "\",\"to\":\"" + now.plusSeconds(60) + "\"}");
        await().atMost(Duration.ofSeconds(15)).until(() -> drainQueue() == 5);
        assertThat(byTime.json().get("queued").asInt()).isEqualTo(3);
        assertThat(receivedIds.subList(2, 5)).containsExactlyInAnyOrder(messageIdOf(first), messageIdOf(second),
                messageIdOf(third));
    }

    @Test
    void unboundedTooWideAndOversizedReplaysAreRefusedAndQueueNothing() {
        start(Map.of("ordering.admin.replay-max-messages", "2", "ordering.admin.replay-max-window", "1h"));
        placeOrder();
        placeOrder();
        placeOrder();
        await().atMost(Duration.ofSeconds(15)).until(() -> drainQueue() == 3);
        await().atMost(Duration.ofSeconds(5)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM outbox_message WHERE status = 'PUBLISHED'", Integer.class) == 3);
        Instant now = Instant.now();

        for (String body : List.of("{}",
                "{\"from\":\"" + now.minusSeconds(7200) + "\",\"to\":\"" + now + "\"}",
                "{\"from\":\"" + now.minusSeconds(600) + "\"}",
                "{\"from\":\"" + now.minusSeconds(600) + "\",\"to\":\"" + now.plusSeconds(60) + "\"}")) {
            HttpJson.Response refused = instance.http.postJson("/admin/outbox/replay", body);
            assertThat(refused.status()).as(body).isEqualTo(400);
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
            assertThat(refused.json().get("errors").get(0).get("field").asString()).isNotBlank();
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message WHERE status <> 'PUBLISHED'",
                Integer.class)).isZero();
        assertThat(instance.http.get("/admin/outbox/parked?limit=0").status()).isEqualTo(400);
        assertThat(instance.http.get("/admin/outbox/parked?limit=501").status()).isEqualTo(400);
        assertThat(instance.http.get("/admin/outbox/parked?after=-1").status()).isEqualTo(400);
        assertThat(instance.http.get("/admin/outbox/messages/not-a-uuid").status()).isEqualTo(400);
    }

    @Test
    void onlyOperatorsReachTheAdminApi() {
        start(Map.of("ordering.outbox.relay", "none"));
        UUID parked = insertParked("order-1");
        HttpJson customer = instance.http.as(TestTokens.customer(UUID.randomUUID()));

        assertThat(customer.get("/admin/outbox/parked").status()).isEqualTo(403);
        assertThat(customer.get("/admin/outbox/messages/" + parked).status()).isEqualTo(403);
        assertThat(customer.post("/admin/outbox/parked/" + parked + "/requeue", null, "").status()).isEqualTo(403);
        assertThat(customer.post("/admin/outbox/parked/requeue", null, "").status()).isEqualTo(403);
        assertThat(customer.delete("/admin/outbox/parked/" + parked).status()).isEqualTo(403);
        assertThat(customer.postJson("/admin/outbox/replay", "{\"aggregateId\":\"order-1\"}").status())
                .isEqualTo(403);
        assertThat(instance.http.anonymous().get("/admin/outbox/parked").status()).isEqualTo(401);
        assertThat(jdbc.queryForObject("SELECT status FROM outbox_message WHERE id = ?", String.class, id(parked)))
                .isEqualTo("PARKED");
        assertThat(instance.http.get("/admin/outbox/parked").json().get("items")).hasSize(1);
        assertThat(audit.list).isEmpty();
    }

    /** An id as a statement parameter on this engine. */
    private Object id(UUID id) {
        return engine().database().id(id);
    }
}
