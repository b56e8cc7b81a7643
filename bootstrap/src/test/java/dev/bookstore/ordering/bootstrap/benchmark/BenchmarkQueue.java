package dev.bookstore.ordering.bootstrap.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.bookstore.ordering.adapters.messaging.outbound.OrderingTopology;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's own broker objects: a durable topic exchange and a durable queue bound to it with
 * {@value OrderingTopology#ALL_ORDER_EVENTS}, like a consumer of the ordering service would bind one. After every
 * drain it reads the queue empty and checks that exactly the seeded messages arrived, each once.
 */
final class BenchmarkQueue implements AutoCloseable {

    private final Connection connection;
    private final Channel channel;
    private final String exchange = TestRabbit.uniqueExchange();
    private final String queue = TestRabbit.uniqueQueue("relay-benchmark");

    BenchmarkQueue(TestRabbit.Broker broker) throws Exception {
        connection = broker.rawConnectionFactory().newConnection("relay-benchmark-check");
        channel = connection.createChannel();
        channel.exchangeDeclare(exchange, "topic", true);
        channel.queueDeclare(queue, true, false, false, null);
        channel.queueBind(queue, exchange, OrderingTopology.ALL_ORDER_EVENTS);
    }

    String exchange() {
        return exchange;
    }

    void purge() throws Exception {
        channel.queuePurge(queue);
    }

    /** How many messages the queue holds. */
    int depth() throws Exception {
        return channel.queueDeclarePassive(queue).getMessageCount();
    }

    /**
     * Consumes the whole queue and throws unless it held exactly one message for each of {@code expected}
     * (compared by {@code message_id}), and nothing else.
     */
    void expectExactly(Set<UUID> expected) throws Exception {
        int waiting = depth();
        if (waiting != expected.size()) {
            purge();
            throw new IllegalStateException("the queue holds " + waiting + " messages, expected " + expected.size());
        }
        List<String> messageIds = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(waiting);
        Channel reader = connection.createChannel();
        try {
            reader.basicConsume(queue, true, new DefaultConsumer(reader) {
                @Override
                public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties,
                                           byte[] body) {
                    messageIds.add(String.valueOf(properties.getMessageId()));
                    all.countDown();
                }
            });
            if (!all.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("read only " + messageIds.size() + " of " + waiting + " messages");
            }
        } finally {
            reader.abort();
        }
        Set<String> distinct = new HashSet<>(messageIds);
        Set<String> seeded = new HashSet<>();
        expected.forEach(id -> seeded.add(id.toString()));
        if (messageIds.size() != expected.size() || !distinct.equals(seeded)) {
            throw new IllegalStateException("received %d messages with %d distinct ids; expected the %d seeded ids"
                    .formatted(messageIds.size(), distinct.size(), expected.size()));
        }
        int left = depth();
        if (left != 0) {
            throw new IllegalStateException(left + " more messages arrived after the check");
        }
    }

    /** What the broker says it is, for the report. */
    String serverVersion() {
        return String.valueOf(connection.getServerProperties().get("version"));
    }

    @Override
    public void close() throws Exception {
        try {
            channel.queueDelete(queue);
            channel.exchangeDelete(exchange);
        } finally {
            connection.close();
        }
    }
}
