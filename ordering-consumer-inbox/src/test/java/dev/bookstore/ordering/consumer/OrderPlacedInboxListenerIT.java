package dev.bookstore.ordering.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import dev.bookstore.ordering.adapters.messaging.outbound.OrderEventContract;
import dev.bookstore.ordering.adapters.messaging.outbound.RabbitMessagePublisher;
import dev.bookstore.ordering.adapters.messaging.outbound.TestOutboxMessages;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import dev.bookstore.ordering.consumer.InboxQueue.DeadLettering;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.Exchange;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The inbox listener on a real RabbitMQ, fed by the ordering service's own publisher and contract: its own exchange,
 * the queue recipe ({@link InboxQueue}), an in-memory inbox that rolls back with the transaction.
 */
class OrderPlacedInboxListenerIT {

    private static final String CONSUMER = "inbox-it";
    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_DELIVERIES = 3;

    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private final InMemoryInboxStore inbox = new InMemoryInboxStore();
    private final List<OrderPlacedPayload> handled = new CopyOnWriteArrayList<>();
    private final AtomicInteger duplicatesSkipped = new AtomicInteger();
    private String exchange;
    private InboxQueue queue;
    private CachingConnectionFactory connectionFactory;
    private RabbitAdmin admin;
    private RabbitMessagePublisher publisher;

    @BeforeEach
    void isolatedExchangeAndQueues() throws Exception {
        TestRabbit.Broker broker = TestRabbit.broker();
        exchange = TestRabbit.uniqueExchange();
        connectionFactory = broker.connectionFactory();
        cleanup.add(connectionFactory::destroy);
        admin = new RabbitAdmin(connectionFactory);
        cleanup.add(() -> admin.deleteExchange(exchange));

        CachingConnectionFactory publisherFactory = broker.connectionFactory();
        cleanup.add(publisherFactory::destroy);
        publisher = new RabbitMessagePublisher(publisherFactory);
    }

    @AfterEach
    void deleteEverything() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    @Test
    void aMessageDeliveredAgainWithTheSameMessageIdIsHandledOnce() {
        listen(DeadLettering.BROKER, handled::add);
        OutboxMessage first = TestOutboxMessages.orderPlaced(exchange);
        OutboxMessage second = TestOutboxMessages.orderPlaced(exchange);

        publish(first);
        publish(first); // what a relay does when it crashed between the confirm and recording it
        publish(second);

        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.calls() == 3);
        assertThat(handled).extracting(payload -> payload.orderId().toString())
                .containsExactly(first.aggregateId(), second.aggregateId());
        assertThat(duplicatesSkipped.get()).isEqualTo(1);
        assertThat(inbox.contains(CONSUMER, first.id())).isTrue();
        assertThat(inbox.contains(CONSUMER, second.id())).isTrue();
    }

    @Test
    void aFailingHandlerRollsTheInboxRecordBackSoTheRedeliveryIsHandled() {
        AtomicInteger attempts = new AtomicInteger();
        listen(DeadLettering.BROKER, payload -> {
            if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("the handler's database is briefly away");
            }
            handled.add(payload);
        });
        OutboxMessage message = TestOutboxMessages.orderPlaced(exchange);

        publish(message);

        await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() == 1);
        assertThat(attempts).hasValue(2);
        assertThat(inbox.calls()).isEqualTo(2);
        assertThat(handled.get(0).orderId().toString()).isEqualTo(message.aggregateId());
    }

    @Test
    void otherOrderEventsOnTheQueueAreIgnored() {
        listen(DeadLettering.BROKER, handled::add);
        OrderCancelled cancelled = new OrderCancelled(UUID.randomUUID(), Instant.now(),
                new OrderId(UUID.randomUUID()), "changed my mind");
        OutboxMessage cancellation = new OrderEventContract(exchange).externalize(cancelled)
                .orElseThrow().toOutboxMessage(cancelled, Map.of());
        OutboxMessage placed = TestOutboxMessages.orderPlaced(exchange);

        publish(cancellation);
        publish(placed);

        await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() == 1);
        assertThat(handled.get(0).orderId().toString()).isEqualTo(placed.aggregateId());
        assertThat(inbox.calls()).isEqualTo(1);
        assertThat(inbox.contains(CONSUMER, cancellation.id())).isFalse();
    }

    @Test
    void aMessageThatBreaksTheContractIsDeadLetteredInsteadOfRedeliveredForever() {
        listen(DeadLettering.BROKER, handled::add);
        MessageProperties properties = new MessageProperties();
        properties.setMessageId(UUID.randomUUID().toString());
        properties.setType(OrderPlacedPayload.TYPE);
        properties.setContentType(MessageProperties.CONTENT_TYPE_JSON);
        new RabbitTemplate(connectionFactory).send(exchange, OrderEventContract.ORDER_PLACED_ROUTING_KEY,
                new Message("{\"orderId\":42}".getBytes(StandardCharsets.UTF_8), properties));
        OutboxMessage valid = TestOutboxMessages.orderPlaced(exchange);
        publish(valid);

        await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() == 1);
        Message dead = deadLetter();
        assertThat((String) dead.getMessageProperties().getHeader(OrderPlacedInboxListener.REASON_HEADER))
                .contains("invalid payload");
        assertThat(handled.get(0).orderId().toString()).isEqualTo(valid.aggregateId());
        assertThat(inbox.calls()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(DeadLettering.class)
    void aMessageWhoseHandlerKeepsFailingEndsInTheDeadLetterQueueWithItsReasonAfterMaxDeliveries(
            DeadLettering mode) {
        AtomicInteger poisonTries = new AtomicInteger();
        OutboxMessage poison = TestOutboxMessages.orderPlaced(exchange);
        listen(mode, payload -> {
            if (payload.orderId().toString().equals(poison.aggregateId())) {
                poisonTries.incrementAndGet();
                throw new IllegalStateException("the handler cannot take order " + payload.orderId());
            }
            handled.add(payload);
        });
        OutboxMessage good = TestOutboxMessages.orderPlaced(exchange);

        publish(poison);
        publish(good);

        Message dead = deadLetter();
        MessageProperties properties = dead.getMessageProperties();
        assertThat(properties.getMessageId()).isEqualTo(poison.id().toString());
        assertThat((String) properties.getHeader(OrderPlacedInboxListener.REASON_HEADER))
                .isEqualTo("IllegalStateException: the handler cannot take order " + poison.aggregateId());
        assertThat(((Number) properties.getHeader(OrderPlacedInboxListener.DELIVERIES_HEADER)).intValue())
                .isEqualTo(MAX_DELIVERIES);
        assertThat(poisonTries).hasValue(MAX_DELIVERIES);
        assertThat(new String(dead.getBody(), StandardCharsets.UTF_8)).isEqualTo(poison.payload());
        await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() == 1);
        assertThat(handled.get(0).orderId().toString()).isEqualTo(good.aggregateId());
        assertThat(inbox.contains(CONSUMER, poison.id())).isFalse();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> admin.getQueueInfo(queue.name()).getMessageCount() == 0);
        assertThat(poisonTries).hasValue(MAX_DELIVERIES);
    }

    @ParameterizedTest
    @EnumSource(DeadLettering.class)
    void aMessageWithoutMessageIdGoesToTheDeadLetterQueueAtOnce(DeadLettering mode) {
        listen(mode, handled::add);
        OutboxMessage template = TestOutboxMessages.orderPlaced(exchange);
        MessageProperties properties = new MessageProperties();
        properties.setType(OrderPlacedPayload.TYPE);
        properties.setContentType(MessageProperties.CONTENT_TYPE_JSON);
        new RabbitTemplate(connectionFactory).send(exchange, OrderEventContract.ORDER_PLACED_ROUTING_KEY,
                new Message(template.payload().getBytes(StandardCharsets.UTF_8), properties));

        Message dead = deadLetter();
        assertThat((String) dead.getMessageProperties().getHeader(OrderPlacedInboxListener.REASON_HEADER))
                .contains("without message_id");
        assertThat(((Number) dead.getMessageProperties().getHeader(OrderPlacedInboxListener.DELIVERIES_HEADER))
                .intValue()).isEqualTo(1);
        assertThat(handled).isEmpty();
        assertThat(inbox.calls()).isZero();
    }

    @Test
    void theBrokerItselfDeadLettersAMessageRequeuedMoreOftenThanTheDeliveryLimit() throws Exception {
        declare(DeadLettering.BROKER);
        OutboxMessage message = TestOutboxMessages.orderPlaced(exchange);
        publish(message);

        // a consumer that hands the message back every time, as one that dies on it would
        try (Connection connection = TestRabbit.broker().rawConnectionFactory().newConnection("inbox-it-requeue")) {
            Channel channel = connection.createChannel();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                GetResponse delivery = channel.basicGet(queue.name(), false);
                if (delivery != null) {
                    channel.basicReject(delivery.getEnvelope().getDeliveryTag(), true);
                }
                return admin.getQueueInfo(queue.deadLetterQueueName()).getMessageCount() == 1;
            });
        }

        Message dead = deadLetter();
        assertThat(dead.getMessageProperties().getMessageId()).isEqualTo(message.id().toString());
        List<Map<String, ?>> deaths = dead.getMessageProperties().getXDeathHeader();
        assertThat(deaths).isNotEmpty();
        assertThat(deaths.get(0).get("reason")).isEqualTo("delivery_limit");
    }

    private void declare(DeadLettering mode) {
        queue = new InboxQueue(TestRabbit.uniqueQueue("inbox"), mode, MAX_DELIVERIES, Duration.ofMillis(20));
        var declarables = queue.declarables(exchange);
        declarables.getDeclarablesByType(Exchange.class).forEach(admin::declareExchange);
        declarables.getDeclarablesByType(Queue.class).forEach(admin::declareQueue);
        declarables.getDeclarablesByType(Binding.class).forEach(admin::declareBinding);
        cleanup.add(() -> admin.deleteExchange(queue.deadLetterExchangeName()));
        cleanup.add(() -> admin.deleteQueue(queue.deadLetterQueueName()));
        cleanup.add(() -> admin.deleteQueue(queue.name()));
    }

    private void listen(DeadLettering mode, Consumer<OrderPlacedPayload> handler) {
        declare(mode);
        OrderPlacedInboxListener listener = new OrderPlacedInboxListener(CONSUMER, inbox,
                new TransactionTemplate(new NoResourceTransactionManager()), handler,
                duplicatesSkipped::incrementAndGet);
        SimpleMessageListenerContainer container = listener.container(connectionFactory, queue);
        container.start();
        cleanup.add(container::stop);
    }

    /** The one message in the dead-letter queue. */
    private Message deadLetter() {
        RabbitTemplate template = new RabbitTemplate(connectionFactory);
        Message[] dead = new Message[1];
        await().atMost(Duration.ofSeconds(20))
                .until(() -> (dead[0] = template.receive(queue.deadLetterQueueName())) != null);
        return dead[0];
    }

    private void publish(OutboxMessage message) {
        assertThat(publisher.publish(List.of(message), CONFIRM_TIMEOUT, () -> false))
                .extracting(PublishResult::outcome).containsExactly(Outcome.CONFIRMED);
    }
}
