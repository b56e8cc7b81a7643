package dev.bookstore.ordering.adapters.messaging.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;

/**
 * Compares the publisher with a plain Java-client relay doing the same work in the same run: batches of 500
 * persistent, mandatory messages with the same properties, each batch published whole and then awaited with
 * {@code waitForConfirms}. It prints both rates; it asserts only that every message was confirmed, because
 * absolute times depend on the machine.
 */
class PublisherThroughputIT {

    private static final int MESSAGES = 20_000;
    private static final int BATCH = 500;
    private static final int WARM_UP = 4_000;
    private static final int ROUNDS = 3;
    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(30);

    private TestRabbit.Broker broker;
    private String exchange;
    private CachingConnectionFactory adminFactory;
    private RabbitAdmin admin;
    private Connection rawConnection;
    private Channel sink;
    private String queue;

    @BeforeEach
    void isolatedExchangeAndQueue() throws Exception {
        broker = TestRabbit.broker();
        exchange = TestRabbit.uniqueExchange();
        adminFactory = broker.connectionFactory();
        admin = new RabbitAdmin(adminFactory);
        admin.declareExchange(new OrderingTopology(exchange).exchange());
        rawConnection = broker.rawConnectionFactory().newConnection("throughput-it");
        sink = rawConnection.createChannel();
        queue = sink.queueDeclare(TestRabbit.uniqueQueue("throughput"), false, true, true, null).getQueue();
        sink.queueBind(queue, exchange, OrderingTopology.ALL_ORDER_EVENTS);
    }

    @AfterEach
    void deleteEverything() throws Exception {
        rawConnection.close();
        admin.deleteExchange(exchange);
        adminFactory.destroy();
    }

    @Test
    void publisherThroughputComparedWithThePlainClient() throws Exception {
        List<OutboxMessage> messages = TestOutboxMessages.orderPlaced(exchange, MESSAGES);
        CachingConnectionFactory publisherFactory = broker.connectionFactory();
        try (Connection plainConnection = broker.rawConnectionFactory().newConnection("throughput-plain")) {
            RabbitMessagePublisher publisher = new RabbitMessagePublisher(publisherFactory);
            Channel plain = plainConnection.createChannel();
            plain.confirmSelect();

            // both warm up (JIT, channel and connection set-up) before anything is timed
            publishWithPublisher(publisher, messages.subList(0, WARM_UP));
            publishWithPlainClient(plain, messages.subList(0, WARM_UP));
            sink.queuePurge(queue);

            // alternate, so that load from elsewhere on the machine hits both alike
            Measurement[] plainRuns = new Measurement[ROUNDS];
            Measurement[] publisherRuns = new Measurement[ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                plainRuns[round] = measure(() -> publishWithPlainClient(plain, messages));
                sink.queuePurge(queue);
                publisherRuns[round] = measure(() -> publishWithPublisher(publisher, messages));
                sink.queuePurge(queue);
            }

            Measurement plainBest = best(plainRuns);
            Measurement publisherBest = best(publisherRuns);
            System.out.printf("%nThroughput, %,d persistent mandatory messages in batches of %d, %d runs each:%n"
                            + "  plain Java client (publish batch + waitForConfirms): %s msg/s%n"
                            + "  RabbitMessagePublisher (own confirm/return listeners): %s msg/s%n"
                            + "  best: plain %,.0f msg/s, publisher %,.0f msg/s, ratio publisher/plain %.2f%n"
                            + "  client CPU per message in the best run: plain %.1f us, publisher %.1f us%n%n",
                    MESSAGES, BATCH, ROUNDS, rates(plainRuns), rates(publisherRuns), plainBest.rate(),
                    publisherBest.rate(), publisherBest.rate() / plainBest.rate(), plainBest.cpuMicrosPerMessage(),
                    publisherBest.cpuMicrosPerMessage());
        } finally {
            publisherFactory.destroy();
        }
    }

    private static void publishWithPublisher(RabbitMessagePublisher publisher, List<OutboxMessage> messages) {
        for (int from = 0; from < messages.size(); from += BATCH) {
            List<PublishResult> results = publisher.publish(
                    messages.subList(from, Math.min(from + BATCH, messages.size())), CONFIRM_TIMEOUT, () -> false);
            assertThat(results).extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);
        }
    }

    private void publishWithPlainClient(Channel channel, List<OutboxMessage> messages) throws Exception {
        for (int from = 0; from < messages.size(); from += BATCH) {
            for (OutboxMessage message : messages.subList(from, Math.min(from + BATCH, messages.size()))) {
                Map<String, Object> headers = new HashMap<>(message.headers());
                AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                        .messageId(message.id().toString())
                        .correlationId(message.aggregateId())
                        .type(message.type())
                        .contentType("application/json")
                        .contentEncoding("utf-8")
                        .deliveryMode(2)
                        .timestamp(Date.from(message.occurredAt()))
                        .appId("ordering-service")
                        .headers(headers)
                        .build();
                channel.basicPublish(message.exchange(), message.routingKey(), true, properties,
                        message.payload().getBytes(StandardCharsets.UTF_8));
            }
            assertThat(channel.waitForConfirms(CONFIRM_TIMEOUT.toMillis())).as("all acked").isTrue();
        }
    }

    private interface Run {
        void run() throws Exception;
    }

    /** Messages per second (wall clock), and this JVM's CPU time per message (all threads). */
    private record Measurement(double rate, double cpuMicrosPerMessage) {
    }

    private static Measurement measure(Run run) throws Exception {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long started = System.nanoTime();
        run.run();
        long elapsed = System.nanoTime() - started;
        long cpu = os.getProcessCpuTime() - cpuBefore;
        return new Measurement(MESSAGES / (elapsed / 1e9), cpu / 1e3 / MESSAGES);
    }

    private static Measurement best(Measurement[] runs) {
        return Arrays.stream(runs).max(Comparator.comparingDouble(Measurement::rate)).orElseThrow();
    }

    private static String rates(Measurement[] runs) {
        return Arrays.stream(runs).map(run -> String.format("%,.0f", run.rate())).collect(Collectors.joining(", "));
    }
}
