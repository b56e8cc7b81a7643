package dev.bookstore.ordering.adapters.messaging.in;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.messaging.out.OrderEventContract;
import dev.bookstore.ordering.adapters.messaging.out.OrderPlacedPayload;
import dev.bookstore.ordering.adapters.messaging.out.OrderingTopology;
import dev.bookstore.ordering.adapters.messaging.out.RabbitMessagePublisher;
import dev.bookstore.ordering.adapters.messaging.out.TestOutboxMessages;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.PublishResult;
import dev.bookstore.ordering.application.outbox.PublishResult.Outcome;
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
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The inbox listener on a real RabbitMQ: its own exchange, a queue bound with {@code order.#} that dead-letters
 * rejected messages to a second queue, an in-memory inbox that rolls back with the transaction.
 */
class OrderPlacedInboxListenerIT {

    private static final String CONSUMER = "inbox-it";
    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);

    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private final InMemoryInboxStore inbox = new InMemoryInboxStore();
    private final List<OrderPlacedPayload> handled = new CopyOnWriteArrayList<>();
    private final AtomicInteger duplicatesSkipped = new AtomicInteger();
    private String exchange;
    private Queue queue;
    private Queue deadLetters;
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

        deadLetters = QueueBuilder.nonDurable(TestRabbit.uniqueQueue("inbox-dead-letters")).autoDelete().build();
        admin.declareQueue(deadLetters);
        cleanup.add(() -> admin.deleteQueue(deadLetters.getName()));
        queue = QueueBuilder.nonDurable(TestRabbit.uniqueQueue("inbox")).autoDelete()
                .deadLetterExchange("").deadLetterRoutingKey(deadLetters.getName()).build();
        cleanup.add(() -> admin.deleteExchange(exchange));
        new OrderingTopology(exchange).declareConsumerWith(admin, queue);
        cleanup.add(() -> admin.deleteQueue(queue.getName()));

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
        listen(handled::add);
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
        listen(payload -> {
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
        listen(handled::add);
        OrderCancelled cancelled = new OrderCancelled(UUID.randomUUID(), Instant.now(),
                new OrderId(UUID.randomUUID()), "changed my mind");
        OutboxMessage cancellation = new OrderEventContract(exchange).externalize(cancelled, Map.of())
                .orElseThrow();
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
        listen(handled::add);
        MessageProperties properties = new MessageProperties();
        properties.setMessageId(UUID.randomUUID().toString());
        properties.setType(OrderEventContract.ORDER_PLACED_TYPE);
        properties.setContentType(MessageProperties.CONTENT_TYPE_JSON);
        new RabbitTemplate(connectionFactory).send(exchange, OrderEventContract.ORDER_PLACED_ROUTING_KEY,
                new Message("{\"orderId\":42}".getBytes(StandardCharsets.UTF_8), properties));
        OutboxMessage valid = TestOutboxMessages.orderPlaced(exchange);
        publish(valid);

        await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() == 1);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> admin.getQueueInfo(deadLetters.getName()).getMessageCount() == 1);
        assertThat(handled.get(0).orderId().toString()).isEqualTo(valid.aggregateId());
        assertThat(inbox.calls()).isEqualTo(1);
    }

    private void listen(Consumer<OrderPlacedPayload> handler) {
        OrderPlacedInboxListener listener = new OrderPlacedInboxListener(CONSUMER, inbox,
                new TransactionTemplate(new NoResourceTransactionManager()), handler,
                duplicatesSkipped::incrementAndGet);
        SimpleMessageListenerContainer container = listener.container(connectionFactory, queue.getName());
        container.start();
        cleanup.add(container::stop);
    }

    private void publish(OutboxMessage message) {
        assertThat(publisher.publish(List.of(message), CONFIRM_TIMEOUT))
                .extracting(PublishResult::outcome).containsExactly(Outcome.CONFIRMED);
    }
}
