package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.bootstrap.relay.OutboxRelayWorkers;
import dev.bookstore.ordering.testing.TcpProxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The relay end to end, on each engine (PostgreSQL, MariaDB) and the real RabbitMQ: several instances on one database, a broker
 * outage made with a TCP proxy (the machine's broker is never stopped), a poison message, a crashed relay.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(TestEngine.class)
class OutboxRelayIT {

    @Parameter
    TestEngine engine;

    private final List<ServiceInstance> instances = new ArrayList<>();
    private OutboxTestBed bed;
    private TestDatabase database;
    private JdbcTemplate jdbc;
    private TestRabbit.Broker broker;
    private CachingConnectionFactory consumerConnection;
    private RabbitAdmin admin;
    private String exchange;
    private Queue queue;
    private final Map<String, Message> received = new ConcurrentHashMap<>();
    private final List<String> receivedIds = java.util.Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void freshDatabaseExchangeAndQueue() {
        bed = OutboxTestBed.create(engine);
        database = bed.database();
        jdbc = bed.jdbc();
        broker = bed.broker();
        consumerConnection = bed.consumerConnection();
        admin = bed.admin();
        exchange = bed.exchange();
        queue = bed.queue();
    }

    @AfterEach
    void stopEverything() {
        instances.forEach(ServiceInstance::close);
        bed.close();
    }

    private ServiceInstance start(int rabbitPort, Map<String, String> overrides) {
        Map<String, String> properties = new java.util.HashMap<>(overrides);
        properties.put("spring.rabbitmq.username", broker.username());
        properties.put("spring.rabbitmq.password", broker.password());
        ServiceInstance instance = ServiceInstance.start(database, broker.host(), rabbitPort, exchange, properties);
        instances.add(instance);
        return instance;
    }

    /** Moves whatever has arrived in the test queue into {@link #received}; returns how many are there. */
    private int drainQueue() {
        RabbitTemplate template = new RabbitTemplate(consumerConnection);
        Message message;
        while ((message = template.receive(queue.getName())) != null) {
            String id = message.getMessageProperties().getMessageId();
            receivedIds.add(id);
            received.put(id, message);
        }
        return receivedIds.size();
    }

    private Set<String> outboxIds(String where) {
        return Set.copyOf(jdbc.queryForList("SELECT LOWER(CAST(id AS varchar(36))) FROM outbox_message WHERE "
                + where, String.class));
    }

    private String placeOrder(ServiceInstance instance) {
        HttpJson.Response response = instance.http.postJson("/orders",
                HttpJson.orderJson(UUID.randomUUID().toString(), 1));
        assertThat(response.status()).isEqualTo(201);
        return response.json().get("id").asString();
    }

    @Test
    void twoInstancesOnOneDatabasePublishEveryOrderExactlyOnce() throws Exception {
        Map<String, String> smallBatches = Map.of("ordering.outbox.batch-size", "10");
        ServiceInstance first = start(broker.port(), smallBatches);
        ServiceInstance second = start(broker.port(), smallBatches);
        int orders = 200;

        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> placed = new ArrayList<>();
            for (int i = 0; i < orders; i++) {
                ServiceInstance target = i % 2 == 0 ? first : second;
                placed.add(clients.submit(() -> placeOrder(target)));
            }
            for (Future<String> future : placed) {
                future.get();
            }
        } finally {
            clients.shutdown();
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> outboxIds("status = 'PUBLISHED'").size() == orders);
        await().atMost(Duration.ofSeconds(10)).until(() -> drainQueue() >= orders);
        drainQueue();

        assertThat(receivedIds).hasSize(orders).doesNotHaveDuplicates();
        assertThat(Set.copyOf(receivedIds)).isEqualTo(outboxIds("true"));
        received.values().forEach(message -> assertThat(message.getMessageProperties().getCorrelationId())
                .isEqualTo(jdbc.queryForObject("SELECT aggregate_id FROM outbox_message WHERE id = ?",
                        String.class, id(message.getMessageProperties().getMessageId()))));
        assertThat(first.publishedByThisInstance() + second.publishedByThisInstance()).isEqualTo(orders);
        System.out.printf("two instances: first published %d, second published %d%n",
                first.publishedByThisInstance(), second.publishedByThisInstance());
    }

    @Test
    void givenBrokerDown_placeOrder_returns201AndTheMessagesGoOutByThemselvesWhenItReturns() {
        try (TcpProxy proxy = new TcpProxy(broker.host(), broker.port()).start()) {
            ServiceInstance instance = start(proxy.port(), Map.of());
            proxy.cut();

            for (int i = 0; i < 5; i++) {
                placeOrder(instance);
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> // the stats snapshot of the next refresh
                    assertThat(instance.http.get("/outbox/stats").json().get("pending").asLong()).isEqualTo(5));
            // The relay keeps trying during the outage without counting attempts against the messages.
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                    .until(() -> drainQueue() == 0 && outboxIds("status = 'PARKED'").isEmpty());

            Instant restored = Instant.now();
            proxy.restore();

            await().atMost(Duration.ofSeconds(30)).until(() -> drainQueue() == 5);
            Duration lastArrivedAfter = Duration.between(restored, Instant.now());
            System.out.printf("broker outage: last of 5 messages arrived %d ms after the proxy was restored%n",
                    lastArrivedAfter.toMillis());
            assertThat(Set.copyOf(receivedIds)).isEqualTo(outboxIds("true"));
            assertThat(jdbc.queryForObject("SELECT max(attempts) FROM outbox_message", Integer.class)).isZero();
            await().atMost(Duration.ofSeconds(5)).until(() ->
                    instance.http.get("/outbox/stats").json().get("pending").asLong() == 0);
        }
    }

    @Test
    void whileTheBrokerIsDownTheRelayProbesItHoldsNoRowAndPublishesWithinTheProbeIntervalOfItsReturn() {
        try (TcpProxy proxy = new TcpProxy(broker.host(), broker.port()).start()) {
            // A poll interval of an hour: only the broker probe can explain a prompt publication after the outage.
            ServiceInstance instance = start(proxy.port(), Map.of(
                    "ordering.outbox.poll-interval", "1h",
                    "ordering.outbox.broker-probe-interval", "100ms"));
            proxy.cut();

            for (int i = 0; i < 5; i++) {
                placeOrder(instance);
            }
            // After the round that found the broker away, nothing is claimed (no lease to wait out, no attempt).
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() ->
                    outboxIds("claimed_by IS NOT NULL OR attempts > 0 OR next_attempt_at > " + engine.now()).isEmpty()
                            && drainQueue() == 0);

            Instant restored = Instant.now();
            proxy.restore();

            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> drainQueue() == 5);
            Duration lastArrivedAfter = Duration.between(restored, Instant.now());
            System.out.printf("broker probe: last of 5 messages arrived %d ms after the proxy was restored%n",
                    lastArrivedAfter.toMillis());
            assertThat(lastArrivedAfter).isLessThan(Duration.ofSeconds(3));
            assertThat(Set.copyOf(receivedIds)).isEqualTo(outboxIds("true"));
            assertThat(jdbc.queryForObject("SELECT max(attempts) FROM outbox_message", Integer.class)).isZero();
        }
    }

    @Test
    void aPoisonMessageIsRetriedWithBackoffThenParkedWhileTheMessagesBehindItGoOut() {
        ServiceInstance instance = start(broker.port(), Map.of(
                "ordering.outbox.max-attempts", "3",
                "ordering.outbox.backoff-initial", "200ms",
                "ordering.outbox.backoff-max", "400ms"));
        UUID poison = UUID.randomUUID();
        insertMinuteOld(poison, "missing-exchange-" + UUID.randomUUID(), "order.placed");

        List<String> healthy = List.of(placeOrder(instance), placeOrder(instance), placeOrder(instance));

        await().atMost(Duration.ofSeconds(20)).until(() -> drainQueue() == healthy.size());
        await().atMost(Duration.ofSeconds(20)).until(() ->
                "PARKED".equals(jdbc.queryForObject("SELECT status FROM outbox_message WHERE id = ?",
                        String.class, id(poison))));
        Map<String, Object> parked = jdbc.queryForMap(
                "SELECT attempts, last_error FROM outbox_message WHERE id = ?", id(poison));
        assertThat(parked.get("attempts")).isEqualTo(3);
        assertThat((String) parked.get("last_error")).isNotBlank();
        assertThat(receivedIds).doesNotContain(poison.toString());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(instance.http.get("/outbox/stats").json().get("parked").asLong()).isEqualTo(1));
        assertThat(outboxIds("status = 'PUBLISHED'")).hasSize(3);
    }

    /**
     * One row the broker refuses among good ones: a {@code CC} header that is not an array makes RabbitMQ close the
     * channel (406 PRECONDITION_FAILED) mid-batch. The batch is released untried for the bounded retries, then
     * published one at a time: only the poison row is charged, and it parks after max-attempts.
     */
    @Test
    void aRowTheBrokerClosesTheChannelOverParksAfterMaxAttemptsAndTheGoodRowsAreChargedNothing() {
        start(broker.port(), Map.of(
                "ordering.outbox.batch-size", "20",
                "ordering.outbox.max-attempts", "2",
                "ordering.outbox.channel-error-retries", "1",
                "ordering.outbox.poll-interval", "100ms",
                "ordering.outbox.backoff-initial", "100ms",
                "ordering.outbox.backoff-max", "200ms"));
        jdbc.update("""
                INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                            headers, occurred_at)
                SELECT %s, 'order', CONCAT('agg-', g), 'bookstore.order-placed.v1', ?, 'order.placed', %s,
                       CASE WHEN g = 5 THEN %s ELSE %s END, %s
                FROM %s""".formatted(engine.randomUuid(), engine.json("'{}'"),
                engine.json("'{\"CC\": \"not-an-array\"}'"), engine.json("'{}'"),
                engine.plusMillis(engine.now(), "g - 60000"), engine.series(10)),
                exchange);
        String poison = jdbc.queryForObject(
                "SELECT LOWER(CAST(id AS varchar(36))) FROM outbox_message WHERE aggregate_id = 'agg-5'",
                String.class);

        await().atMost(Duration.ofSeconds(30)).until(() ->
                "PARKED".equals(jdbc.queryForObject("SELECT status FROM outbox_message WHERE id = ?",
                        String.class, id(poison))));
        await().atMost(Duration.ofSeconds(20)).until(() -> outboxIds("status = 'PUBLISHED'").size() == 9);

        Map<String, Object> parked = jdbc.queryForMap(
                "SELECT attempts, last_error FROM outbox_message WHERE id = ?", id(poison));
        assertThat(parked.get("attempts")).isEqualTo(2);
        assertThat((String) parked.get("last_error")).startsWith("CHANNEL_CLOSED").contains("406");
        assertThat(jdbc.queryForObject("SELECT max(attempts) FROM outbox_message WHERE id <> ?",
                Integer.class, id(poison))).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> Set.copyOf(receivedIdsAfterDrain()).size() == 9);
        assertThat(Set.copyOf(receivedIds)).isEqualTo(outboxIds("status = 'PUBLISHED'"))
                .doesNotContain(poison);
    }

    /** ordering.outbox.unroutable=park: a message no queue takes is parked at once, the others go out. */
    @Test
    void withUnroutableParkAMessageNoQueueTakesIsParkedAtOnce() {
        ServiceInstance instance = start(broker.port(), Map.of(
                "ordering.outbox.unroutable", "park",
                "ordering.outbox.max-attempts", "10"));
        UUID unroutable = UUID.randomUUID();
        insertMinuteOld(unroutable, exchange, "nobody.listens");
        String order = placeOrder(instance);

        await().atMost(Duration.ofSeconds(20)).until(() ->
                "PARKED".equals(jdbc.queryForObject("SELECT status FROM outbox_message WHERE id = ?",
                        String.class, id(unroutable))));
        Map<String, Object> parked = jdbc.queryForMap(
                "SELECT attempts, last_error FROM outbox_message WHERE id = ?", id(unroutable));
        assertThat(parked.get("attempts")).isEqualTo(1);
        assertThat((String) parked.get("last_error")).startsWith("RETURNED").contains("NO_ROUTE")
                .contains("nobody.listens");
        await().atMost(Duration.ofSeconds(20)).until(() -> drainQueue() >= 1);
        assertThat(received.values()).extracting(m -> m.getMessageProperties().getCorrelationId())
                .containsExactly(order);
    }

    private List<String> receivedIdsAfterDrain() {
        drainQueue();
        return List.copyOf(receivedIds);
    }

    @Test
    void aStoppingInstanceSettlesItsBatchInFlightAndARestartPublishesTheRestWithoutDuplicates() throws Exception {
        int backlog = 20_000;
        try (TcpProxy proxy = new TcpProxy(broker.host(), broker.port()).start()) {
            ServiceInstance first = start(proxy.port(), Map.of("ordering.outbox.batch-size", "100"));
            OutboxRelayWorkers workers = first.bean(OutboxRelayWorkers.class);
            workers.stop(); // no claim while the backlog is written
            jdbc.update("""
                    INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key,
                                                payload, occurred_at)
                    SELECT %1$s, 'order', CAST(%1$s AS varchar(36)), 'bookstore.order-placed.v1', ?,
                           'order.placed', %2$s, %3$s
                    FROM %4$s""".formatted(engine.randomUuid(), engine.json("'{\"orderId\":\"x\"}'"), engine.now(),
                    engine.series(backlog)), exchange);
            workers.start();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                    .until(() -> count("status = 'PUBLISHED'") > 0);

            // The broker's answers are held back: the relay's batch stays in flight, leased, unconfirmed.
            proxy.stall();
            await().atMost(Duration.ofSeconds(10)).until(() -> count("claimed_by IS NOT NULL") > 0);
            Set<String> inFlight = outboxIds("claimed_by IS NOT NULL AND status = 'PENDING'");

            CompletableFuture<Void> closing = CompletableFuture.runAsync(first::close); // SIGTERM
            await().atMost(Duration.ofSeconds(10)).until(() -> !workers.isRunning());
            proxy.resume(); // the confirms of the batch in flight arrive during the shutdown
            closing.get(30, TimeUnit.SECONDS);

            assertThat(count("attempts > 0")).isZero();
            assertThat(count("claimed_by IS NOT NULL")).isZero();
            Set<String> published = outboxIds("status = 'PUBLISHED'");
            assertThat(published).containsAnyElementsOf(inFlight).hasSizeLessThan(backlog);
            await().atMost(Duration.ofSeconds(30)).until(() -> drainQueue() >= published.size());
            assertThat(receivedIds).hasSize(published.size()).doesNotHaveDuplicates();
            assertThat(Set.copyOf(receivedIds)).isEqualTo(published);
        }

        start(broker.port(), Map.of("ordering.outbox.batch-size", "100")); // the restarted instance
        await().atMost(Duration.ofSeconds(60)).until(() -> count("status = 'PUBLISHED'") == backlog);
        await().atMost(Duration.ofSeconds(30)).until(() -> drainQueue() >= backlog);
        assertThat(receivedIds).hasSize(backlog).doesNotHaveDuplicates();
        assertThat(count("attempts > 0")).isZero();
    }

    private long count(String where) {
        return jdbc.queryForObject("SELECT count(*) FROM outbox_message WHERE " + where, Long.class);
    }

    @Test
    void messagesLeasedByACrashedRelayArePublishedByAnotherAfterTheLeaseExpires() {
        start(broker.port(), Map.of());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            UUID id = UUID.randomUUID();
            ids.add(id.toString());
            // As a relay leaves them when it dies between claim and outcome: leased, unpublished.
            insertLeasedByACrashedRelay(id, 5_000);
        }


        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> drainQueue() == 0);
        await().atMost(Duration.ofSeconds(20)).until(() -> drainQueue() == 3);
        assertThat(receivedIds).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(outboxIds("status = 'PUBLISHED'")).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void aLeaseLeftByACrashedRelayIsTakenOverJustAfterItEndsNotAtTheNextPollOrCount() {
        // Polls an hour apart, counts five seconds apart: the takeover within a second of the lease end comes from
        // the count the instance schedules for that moment, which the database's claimed_until gave it.
        start(broker.port(), Map.of("ordering.outbox.poll-interval", "1h",
                "ordering.outbox.poll-interval-when-notified", "1h", "ordering.outbox.stats.refresh-interval", "5s"));
        UUID id = UUID.randomUUID();
        insertLeasedByACrashedRelay(id, 5_500);

        await().atMost(Duration.ofSeconds(20)).until(() -> drainQueue() == 1);
        Duration afterLeaseEnd = jdbc.queryForObject("SELECT created_at, published_at FROM outbox_message WHERE id = ?",
                (rs, row) -> Duration.between(engine.database().instant(rs, 1).plusMillis(5_500),
                        engine.database().instant(rs, 2)), id(id));
        assertThat(afterLeaseEnd).as("from the lease end to the publication")
                .isBetween(Duration.ZERO, Duration.ofSeconds(1));
    }

    @Test
    void aCommitWakesTheLocalRelayAtOnceWithoutWaitingForAPoll() {
        // A poll interval of an hour: only the after-commit signal can explain a prompt publication.
        ServiceInstance instance = start(broker.port(), Map.of("ordering.outbox.poll-interval", "1h"));

        String orderId = placeOrder(instance);

        await().atMost(Duration.ofSeconds(10)).until(() -> drainQueue() == 1);
        assertThat(received.values().iterator().next().getMessageProperties().getCorrelationId()).isEqualTo(orderId);
    }

    @Test
    void aCommitOnOneInstanceWakesTheRelayOfAnotherThroughPostgresNotify() {
        assumeTrue(engine == TestEngine.POSTGRESQL, "NOTIFY is PostgreSQL's; elsewhere the poll wakes other relays");
        ServiceInstance apiOnly = start(broker.port(), Map.of("ordering.outbox.relay", "none"));
        start(broker.port(), Map.of("ordering.outbox.poll-interval", "1h"));
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = ? AND query LIKE 'LISTEN %'", Integer.class,
                database.name()) == 1);

        String orderId = placeOrder(apiOnly);

        await().atMost(Duration.ofSeconds(10)).until(() -> drainQueue() == 1);
        assertThat(received.values().iterator().next().getMessageProperties().getCorrelationId()).isEqualTo(orderId);
    }

    /** An id as a statement parameter on this engine. */
    private Object id(Object id) {
        return engine.database().id(id instanceof UUID uuid ? uuid : UUID.fromString(id.toString()));
    }

    /** A row stored a minute ago, due, for {@code exchange} and {@code routingKey}, with an empty payload. */
    private void insertMinuteOld(UUID id, String exchange, String routingKey) {
        jdbc.update("""
                INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                            occurred_at)
                VALUES (?, 'order', ?, 'bookstore.order-placed.v1', ?, ?, %s, %s)"""
                .formatted(engine.json("'{}'"), engine.plusMillis(engine.now(), -60_000)),
                id(id), UUID.randomUUID().toString(), exchange, routingKey);
    }

    /** A row as a relay leaves it when it dies between claim and outcome: leased for {@code leaseMillis}. */
    private void insertLeasedByACrashedRelay(UUID id, long leaseMillis) {
        jdbc.update("""
                INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key,
                                            payload, occurred_at, claimed_by, claimed_until)
                VALUES (?, 'order', ?, 'bookstore.order-placed.v1', ?, 'order.placed', %s, %s, 'crashed-relay', %s)"""
                .formatted(engine.json("'{\"orderId\":\"x\"}'"), engine.now(),
                        engine.plusMillis(engine.now(), leaseMillis)),
                id(id), UUID.randomUUID().toString(), exchange);
    }
}
