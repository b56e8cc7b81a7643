package dev.bookstore.ordering.adapters.messaging.outbound;

import static dev.bookstore.ordering.adapters.messaging.outbound.TestOutboxMessages.orderPlaced;
import static dev.bookstore.ordering.adapters.messaging.outbound.TestOutboxMessages.redirected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import dev.bookstore.ordering.testing.TcpProxy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;

/**
 * The publisher against a real RabbitMQ. Each test has its own exchange and an exclusive queue bound to it with
 * {@code order.#}, read with the plain Java client so that the assertions see the properties on the wire.
 */
class RabbitMessagePublisherIT {

    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);

    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private TestRabbit.Broker broker;
    private String exchange;
    private RabbitAdmin admin;
    private Channel consumerChannel;
    private String queue;

    @BeforeEach
    void isolatedExchangeAndQueue() throws Exception {
        broker = TestRabbit.broker();
        exchange = TestRabbit.uniqueExchange();
        CachingConnectionFactory adminFactory = broker.connectionFactory();
        cleanup.add(adminFactory::destroy);
        admin = new RabbitAdmin(adminFactory);
        admin.declareExchange(new OrderingTopology(exchange).exchange());
        cleanup.add(() -> admin.deleteExchange(exchange));

        Connection consumerConnection = broker.rawConnectionFactory().newConnection("publisher-it-consumer");
        cleanup.add(consumerConnection::close);
        consumerChannel = consumerConnection.createChannel();
        queue = consumerChannel.queueDeclare(TestRabbit.uniqueQueue("publisher"), false, true, true, null)
                .getQueue();
        consumerChannel.queueBind(queue, exchange, OrderingTopology.ALL_ORDER_EVENTS);
    }

    @AfterEach
    void deleteEverything() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    @Test
    void aBatchIsConfirmedAndArrivesWithAllItsProperties() throws Exception {
        RabbitMessagePublisher publisher = publisher(broker.connectionFactory());
        List<OutboxMessage> batch = orderPlaced(exchange, 50);

        List<PublishResult> results = publisher.publish(batch, CONFIRM_TIMEOUT, () -> false);

        assertThat(results).extracting(PublishResult::messageId)
                .containsExactlyElementsOf(batch.stream().map(OutboxMessage::id).toList());
        assertThat(results).extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);

        Map<String, GetResponse> received = receive(batch.size());
        assertThat(received).hasSize(batch.size());
        for (OutboxMessage sent : batch) {
            GetResponse delivery = received.get(sent.id().toString());
            assertThat(delivery).as("delivery of %s", sent.id()).isNotNull();
            AMQP.BasicProperties properties = delivery.getProps();
            assertThat(properties.getMessageId()).isEqualTo(sent.id().toString());
            assertThat(properties.getCorrelationId()).isEqualTo(sent.aggregateId());
            assertThat(properties.getType()).isEqualTo("bookstore.order-placed.v1");
            assertThat(properties.getContentType()).isEqualTo("application/json");
            assertThat(properties.getContentEncoding()).isEqualTo("utf-8");
            assertThat(properties.getDeliveryMode()).isEqualTo(2);
            assertThat(properties.getTimestamp())
                    .isEqualTo(Date.from(sent.occurredAt().truncatedTo(ChronoUnit.SECONDS)));
            assertThat(properties.getAppId()).isEqualTo("ordering-service");
            Map<String, String> headers = new HashMap<>();
            properties.getHeaders().forEach((name, value) -> headers.put(name, String.valueOf(value)));
            assertThat(headers).containsAllEntriesOf(sent.headers());
            assertThat(headers.get("traceparent")).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
            assertThat(delivery.getEnvelope().getExchange()).isEqualTo(exchange);
            assertThat(delivery.getEnvelope().getRoutingKey()).isEqualTo("order.placed");
            assertThat(new String(delivery.getBody(), StandardCharsets.UTF_8)).isEqualTo(sent.payload());
        }
    }

    @Test
    void theSameMessageKeepsItsMessageIdOnEveryRetry() throws Exception {
        RabbitMessagePublisher publisher = publisher(broker.connectionFactory());
        OutboxMessage message = orderPlaced(exchange);

        publisher.publish(List.of(message), CONFIRM_TIMEOUT, () -> false);
        publisher.publish(List.of(message), CONFIRM_TIMEOUT, () -> false);

        List<GetResponse> deliveries = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            drainInto(deliveries);
            return deliveries.size() >= 2;
        });
        assertThat(deliveries).extracting(d -> d.getProps().getMessageId())
                .containsExactly(message.id().toString(), message.id().toString());
    }

    @Test
    void aStopMidBatchSendsNoFurtherMessageAndStillCollectsTheConfirmsOfTheSentOnes() throws Exception {
        RabbitMessagePublisher publisher = publisher(broker.connectionFactory());
        List<OutboxMessage> batch = orderPlaced(exchange, 10);
        AtomicInteger asked = new AtomicInteger();

        // the relay is asked to stop after the fourth message went out
        List<PublishResult> results = publisher.publish(batch, CONFIRM_TIMEOUT, () -> asked.incrementAndGet() > 4);

        assertThat(results.subList(0, 4)).extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);
        assertThat(results.subList(4, 10)).allSatisfy(result -> {
            assertThat(result.outcome()).isEqualTo(Outcome.BROKER_UNAVAILABLE);
            assertThat(result.detail()).startsWith("not sent");
        });
        assertThat(receive(4).keySet()).containsExactlyInAnyOrderElementsOf(
                batch.subList(0, 4).stream().map(m -> m.id().toString()).toList());
        List<GetResponse> more = new ArrayList<>();
        drainInto(more);
        assertThat(more).isEmpty();
    }

    @Test
    void anUnroutableMessageIsReturnedWhileTheRestOfTheBatchIsConfirmed() throws Exception {
        RabbitMessagePublisher publisher = publisher(broker.connectionFactory());
        List<OutboxMessage> batch = new ArrayList<>(orderPlaced(exchange, 5));
        batch.set(2, redirected(batch.get(2), exchange, "nobody.listens"));

        List<PublishResult> results = publisher.publish(batch, CONFIRM_TIMEOUT, () -> false);

        assertThat(results).extracting(PublishResult::outcome).containsExactly(Outcome.CONFIRMED,
                Outcome.CONFIRMED, Outcome.RETURNED, Outcome.CONFIRMED, Outcome.CONFIRMED);
        assertThat(results.get(2).detail()).contains("312").contains("NO_ROUTE").contains("nobody.listens");
        assertThat(receive(4)).doesNotContainKey(batch.get(2).id().toString());
    }

    /**
     * Why a return is never missed: RabbitMQ sends {@code basic.return} before the {@code basic.ack} of the same
     * message, and the client reads both in order on one connection thread. Checked here on the wire.
     */
    @Test
    void rabbitMqSendsTheReturnOfAnUnroutableMessageBeforeItsAck() throws Exception {
        try (Connection connection = broker.rawConnectionFactory().newConnection("return-order-it")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
            channel.addReturnListener(returned -> events.add("return:" + returned.getProperties().getMessageId()));
            channel.addConfirmListener((tag, multiple) -> events.add("ack:" + tag + ":" + multiple),
                    (tag, multiple) -> events.add("nack:" + tag + ":" + multiple));
            List<Long> unroutableTags = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                long tag = channel.getNextPublishSeqNo();
                boolean unroutable = i % 4 == 1;
                if (unroutable) {
                    unroutableTags.add(tag);
                }
                channel.basicPublish(exchange, unroutable ? "nobody.listens" : "order.placed", true,
                        new AMQP.BasicProperties.Builder().messageId("m" + tag).build(), new byte[] {1});
            }
            channel.waitForConfirmsOrDie(10_000);

            for (long tag : unroutableTags) {
                int returnedAt = events.indexOf("return:m" + tag);
                int ackedAt = firstAckCovering(events, tag);
                assertThat(returnedAt).as("return of %d in %s", tag, events).isNotNegative();
                assertThat(ackedAt).as("ack of %d in %s", tag, events).isGreaterThan(returnedAt);
            }
        }
    }

    @Test
    void aMessageRejectedByAFullQueueIsNacked() throws Exception {
        String limitedExchange = TestRabbit.uniqueExchange();
        admin.declareExchange(new OrderingTopology(limitedExchange).exchange());
        cleanup.add(() -> admin.deleteExchange(limitedExchange));
        String limitedQueue = consumerChannel.queueDeclare(TestRabbit.uniqueQueue("limited"), false, true, true,
                Map.of("x-max-length", 1, "x-overflow", "reject-publish")).getQueue();
        consumerChannel.queueBind(limitedQueue, limitedExchange, OrderingTopology.ALL_ORDER_EVENTS);
        RabbitMessagePublisher publisher = publisher(broker.connectionFactory());

        List<PublishResult> results = publisher.publish(orderPlaced(limitedExchange, 3), CONFIRM_TIMEOUT, () -> false);

        assertThat(results).extracting(PublishResult::outcome)
                .containsExactly(Outcome.CONFIRMED, Outcome.NACKED, Outcome.NACKED);
    }

    @Test
    void aMessageForAMissingExchangeIsNotPublishedAndTheRestOfTheBatchIsConfirmed() throws Exception {
        RabbitMessagePublisher publisher = publisher(broker.connectionFactory());
        List<OutboxMessage> batch = new ArrayList<>(orderPlaced(exchange, 4));
        String missing = TestRabbit.uniqueExchange();
        batch.set(1, redirected(batch.get(1), missing, "order.placed"));

        List<PublishResult> results = publisher.publish(batch, CONFIRM_TIMEOUT, () -> false);

        assertThat(results).extracting(PublishResult::outcome)
                .containsExactly(Outcome.CONFIRMED, Outcome.NACKED, Outcome.CONFIRMED, Outcome.CONFIRMED);
        assertThat(results.get(1).detail()).contains(missing).contains("404");
        assertThat(receive(3)).containsOnlyKeys(batch.get(0).id().toString(), batch.get(2).id().toString(),
                batch.get(3).id().toString());

        List<PublishResult> next = publisher.publish(orderPlaced(exchange, 3), CONFIRM_TIMEOUT, () -> false);
        assertThat(next).extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);
    }

    /**
     * An exchange deleted after the publisher checked it: the broker closes the channel mid-batch (404), which
     * loses the confirms of the messages published with it. They are published again on a new channel within
     * the same call; the message for the deleted exchange ends NACKED.
     */
    @Test
    void anExchangeDeletedAfterItWasCheckedDoesNotLoseTheRestOfTheBatch() throws Exception {
        String doomed = TestRabbit.uniqueExchange();
        admin.declareExchange(new OrderingTopology(doomed).exchange());
        cleanup.add(() -> admin.deleteExchange(doomed));
        RabbitMessagePublisher publisher = publisher(broker.connectionFactory());
        assertThat(publisher.publish(List.of(orderPlaced(doomed)), CONFIRM_TIMEOUT, () -> false))
                .extracting(PublishResult::outcome).containsExactly(Outcome.RETURNED); // no queue, but it exists
        admin.deleteExchange(doomed);

        List<OutboxMessage> batch = new ArrayList<>(orderPlaced(exchange, 6));
        batch.set(2, redirected(batch.get(2), doomed, "order.placed"));
        List<PublishResult> results = publisher.publish(batch, CONFIRM_TIMEOUT, () -> false);

        assertThat(results).extracting(PublishResult::outcome).containsExactly(Outcome.CONFIRMED,
                Outcome.CONFIRMED, Outcome.NACKED, Outcome.CONFIRMED, Outcome.CONFIRMED, Outcome.CONFIRMED);
        assertThat(results.get(2).detail()).contains(doomed).contains("404");
        // messages that reached the queue before the channel closed may arrive twice, never not at all
        List<GetResponse> deliveries = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            drainInto(deliveries);
            return deliveries.stream().map(d -> d.getProps().getMessageId()).distinct().count() >= 5;
        });
        assertThat(deliveries).extracting(d -> d.getProps().getMessageId())
                .doesNotContain(batch.get(2).id().toString());

        assertThat(publisher.publish(orderPlaced(exchange, 3), CONFIRM_TIMEOUT, () -> false))
                .extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);
    }

    /**
     * A message the broker refuses: RabbitMQ closes the channel with 406 PRECONDITION_FAILED when a {@code CC}
     * header is not an array. The messages not confirmed before the close are CHANNEL_CLOSED (not
     * BROKER_UNAVAILABLE), and the poison message, sent alone, is named as the one published last before the close.
     */
    @Test
    void aMessageTheBrokerRefusesClosesTheChannelAndIsNamedWhenSentAlone() {
        RabbitMessagePublisher publisher = publisher(broker.connectionFactory());
        List<OutboxMessage> batch = new ArrayList<>(orderPlaced(exchange, 4));
        batch.set(2, TestOutboxMessages.poisoned(batch.get(2)));

        List<PublishResult> results = publisher.publish(batch, CONFIRM_TIMEOUT, () -> false);

        assertThat(results.subList(2, 4)).allSatisfy(result -> {
            assertThat(result.outcome()).isEqualTo(Outcome.CHANNEL_CLOSED);
            assertThat(result.detail()).contains("406").contains("PRECONDITION_FAILED");
        });
        assertThat(results.subList(0, 2)).extracting(PublishResult::outcome)
                .allMatch(outcome -> outcome == Outcome.CONFIRMED || outcome == Outcome.CHANNEL_CLOSED);

        List<PublishResult> alone = publisher.publish(List.of(batch.get(2)), CONFIRM_TIMEOUT, () -> false);
        assertThat(alone.get(0).outcome()).isEqualTo(Outcome.CHANNEL_CLOSED);
        assertThat(alone.get(0).detail()).endsWith(RoundOutcomes.PUBLISHED_LAST);

        assertThat(publisher.publish(orderPlaced(exchange, 3), CONFIRM_TIMEOUT, () -> false))
                .extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);
    }

    @Test
    void aBrokerThatCannotBeReachedMakesEveryMessageBrokerUnavailableWithoutThrowing() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        CachingConnectionFactory nowhere = broker.connectionFactory("127.0.0.1", closedPort);
        cleanup.add(nowhere::destroy);
        RabbitMessagePublisher publisher = new RabbitMessagePublisher(nowhere);
        List<OutboxMessage> batch = orderPlaced(exchange, 5);

        long started = System.nanoTime();
        List<PublishResult> results = publisher.publish(batch, CONFIRM_TIMEOUT, () -> false);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(results).extracting(PublishResult::messageId)
                .containsExactlyElementsOf(batch.stream().map(OutboxMessage::id).toList());
        assertThat(results).extracting(PublishResult::outcome).containsOnly(Outcome.BROKER_UNAVAILABLE);
        assertThat(results.get(0).detail()).containsIgnoringCase("refused");
    }

    @Test
    void aCutConnectionMakesEveryMessageBrokerUnavailableQuicklyAndTheNextCallAfterRestoreSucceeds() {
        TcpProxy proxy = new TcpProxy(broker.host(), broker.port()).start();
        cleanup.add(proxy);
        CachingConnectionFactory throughProxy = broker.connectionFactory("127.0.0.1", proxy.port());
        cleanup.add(throughProxy::destroy);
        RabbitMessagePublisher publisher = new RabbitMessagePublisher(throughProxy);
        assertThat(publisher.publish(orderPlaced(exchange, 3), CONFIRM_TIMEOUT, () -> false))
                .extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);

        proxy.cut();
        long started = System.nanoTime();
        List<PublishResult> whileDown = publisher.publish(orderPlaced(exchange, 10), CONFIRM_TIMEOUT, () -> false);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(whileDown).extracting(PublishResult::outcome).containsOnly(Outcome.BROKER_UNAVAILABLE);
        assertThat(took).isLessThan(CONFIRM_TIMEOUT.dividedBy(2));

        proxy.restore();
        assertThat(publisher.publish(orderPlaced(exchange, 10), CONFIRM_TIMEOUT, () -> false))
                .extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);
    }

    @Test
    void theProbeAnswersWhetherTheBrokerCanBeReachedAndAProbeThatReachesItLeavesTheConnectionOpenForTheNextBatch() {
        TcpProxy proxy = new TcpProxy(broker.host(), broker.port()).start();
        cleanup.add(proxy);
        CachingConnectionFactory throughProxy = broker.connectionFactory("127.0.0.1", proxy.port());
        RabbitMessagePublisher publisher = publisher(throughProxy);
        assertThat(publisher.brokerReachable()).isTrue();

        proxy.cut();
        // the client learns that its connection was cut on its own reader thread; from then on a probe is one
        // refused connection attempt
        await().atMost(Duration.ofSeconds(5)).until(() -> !publisher.brokerReachable());
        long started = System.nanoTime();
        boolean whileDown = publisher.brokerReachable();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(whileDown).isFalse();
        assertThat(took).isLessThan(Duration.ofSeconds(2)); // a refused connection, not a timeout

        proxy.restore();
        assertThat(publisher.brokerReachable()).isTrue();
        assertThat(proxy.liveConnections()).as("the probe's connection stays open in the factory's cache")
                .isEqualTo(1);
        assertThat(publisher.publish(orderPlaced(exchange, 3), CONFIRM_TIMEOUT, () -> false))
                .extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);
        assertThat(proxy.liveConnections()).as("the batch used the connection the probe opened").isEqualTo(1);
    }

    @Test
    void confirmsThatDoNotArriveByTheDeadlineTimeOutAndLateOnesDoNotDisturbTheNextBatch() {
        TcpProxy proxy = new TcpProxy(broker.host(), broker.port()).start();
        cleanup.add(proxy);
        CachingConnectionFactory throughProxy = broker.connectionFactory("127.0.0.1", proxy.port());
        cleanup.add(throughProxy::destroy);
        RabbitMessagePublisher publisher = new RabbitMessagePublisher(throughProxy);
        assertThat(publisher.publish(orderPlaced(exchange, 3), CONFIRM_TIMEOUT, () -> false))
                .extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);

        proxy.stall();
        Duration deadline = Duration.ofMillis(500);
        long started = System.nanoTime();
        List<PublishResult> stalled = publisher.publish(orderPlaced(exchange, 5), deadline, () -> false);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(stalled).extracting(PublishResult::outcome).containsOnly(Outcome.TIMED_OUT);
        assertThat(took).isGreaterThanOrEqualTo(deadline).isLessThan(Duration.ofSeconds(5));

        proxy.resume();
        assertThat(publisher.publish(orderPlaced(exchange, 5), CONFIRM_TIMEOUT, () -> false))
                .extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);
    }

    @Test
    void anEmptyBatchNeedsNoBroker() {
        CachingConnectionFactory unused = broker.connectionFactory("127.0.0.1", 1);
        cleanup.add(unused::destroy);

        assertThat(new RabbitMessagePublisher(unused).publish(List.of(), CONFIRM_TIMEOUT, () -> false)).isEmpty();
    }

    private RabbitMessagePublisher publisher(CachingConnectionFactory factory) {
        cleanup.add(factory::destroy);
        return new RabbitMessagePublisher(factory);
    }

    /** Exactly {@code count} deliveries from the test queue, by message id (fails on fewer). */
    private Map<String, GetResponse> receive(int count) throws IOException, TimeoutException {
        List<GetResponse> deliveries = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            drainInto(deliveries);
            return deliveries.size() >= count;
        });
        Map<String, GetResponse> byId = new HashMap<>();
        deliveries.forEach(d -> byId.put(d.getProps().getMessageId(), d));
        return byId;
    }

    private void drainInto(List<GetResponse> deliveries) throws IOException {
        GetResponse response;
        while ((response = consumerChannel.basicGet(queue, true)) != null) {
            deliveries.add(response);
        }
    }

    private static int firstAckCovering(List<String> events, long tag) {
        for (int i = 0; i < events.size(); i++) {
            String[] parts = events.get(i).split(":");
            if (parts[0].equals("ack") || parts[0].equals("nack")) {
                long acked = Long.parseLong(parts[1]);
                boolean multiple = Boolean.parseBoolean(parts[2]);
                if (acked == tag || (multiple && acked > tag)) {
                    return i;
                }
            }
        }
        return -1;
    }
}
