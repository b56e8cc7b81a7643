package dev.bookstore.ordering.consumer;

import java.time.Duration;
import java.util.Objects;
import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.ExchangeBuilder;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.core.TopicExchange;

/**
 * The queue recipe of a consumer that uses {@link OrderPlacedInboxListener}: its queue, bound to every order event,
 * and a dead-letter exchange ({@code <name>.dlx}) and queue ({@code <name>.dlq}) where the listener puts a message it
 * gives up on, with the reason. With {@link DeadLettering#BROKER} the queue is also a quorum queue with a delivery
 * limit and that dead-letter exchange, so RabbitMQ dead-letters a message itself should the listener fail to. Between
 * two deliveries of a failing message the listener waits {@code retryDelay}, doubled per failure up to
 * {@link #MAX_RETRY_DELAY}: no hot requeue loop.
 *
 * @param maxDeliveries deliveries of a failing message, the last one included, before it is dead-lettered
 */
public record InboxQueue(String name, DeadLettering deadLettering, int maxDeliveries, Duration retryDelay) {

    /** The ordering service's topic exchange, where every order event is published. */
    public static final String ORDER_EVENTS_EXCHANGE = "bookstore.ordering";

    /** The binding pattern for every order event. */
    public static final String ALL_ORDER_EVENTS = "order.#";

    /** The longest wait between two deliveries of a failing message. */
    public static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);

    /** Who bounds the deliveries of a failing message. */
    public enum DeadLettering {
        /** RabbitMQ: a quorum queue counts the deliveries across every consumer of the queue. */
        BROKER,
        /** Brokers that refuse those queue arguments: the listener counts per message id, in memory per instance. */
        LISTENER
    }

    public InboxQueue {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(deadLettering, "deadLettering");
        Objects.requireNonNull(retryDelay, "retryDelay");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        if (maxDeliveries < 1) {
            throw new IllegalArgumentException("maxDeliveries must be at least 1, got " + maxDeliveries);
        }
        if (retryDelay.isNegative() || retryDelay.compareTo(MAX_RETRY_DELAY) > 0) {
            throw new IllegalArgumentException("retryDelay must be between 0 and " + MAX_RETRY_DELAY);
        }
    }

    public String deadLetterExchangeName() {
        return name + ".dlx";
    }

    public String deadLetterQueueName() {
        return name + ".dlq";
    }

    /** The consumer's queue, durable; its arguments by {@link DeadLettering}. */
    public Queue queue() {
        QueueBuilder queue = QueueBuilder.durable(name);
        if (deadLettering == DeadLettering.BROKER) {
            queue.quorum().deliveryLimit(maxDeliveries).deadLetterExchange(deadLetterExchangeName())
                    .deadLetterRoutingKey(deadLetterQueueName());
        }
        return queue.build();
    }

    public DirectExchange deadLetterExchange() {
        return ExchangeBuilder.directExchange(deadLetterExchangeName()).durable(true).build();
    }

    /** Durable, and of the consumer queue's type. */
    public Queue deadLetterQueue() {
        QueueBuilder queue = QueueBuilder.durable(deadLetterQueueName());
        if (deadLettering == DeadLettering.BROKER) {
            queue.quorum();
        }
        return queue.build();
    }

    public Binding deadLetterBinding() {
        return BindingBuilder.bind(deadLetterQueue()).to(deadLetterExchange()).with(deadLetterQueueName());
    }

    /**
     * The order events' exchange (durable topic, as the ordering service declares it), this queue bound to every order
     * event, the dead-letter exchange and queue: as a bean, Spring AMQP's admin declares them on every (re)connect.
     */
    public Declarables declarables(String exchangeName) {
        TopicExchange exchange = ExchangeBuilder.topicExchange(exchangeName).durable(true).build();
        Queue queue = queue();
        return new Declarables(exchange, queue, BindingBuilder.bind(queue).to(exchange).with(ALL_ORDER_EVENTS),
                deadLetterExchange(), deadLetterQueue(), deadLetterBinding());
    }

    /** The wait before delivery {@code failures + 1} of a message that failed {@code failures} times. */
    Duration retryDelayAfter(int failures) {
        Duration delay = retryDelay;
        for (int i = 1; i < failures && delay.compareTo(MAX_RETRY_DELAY) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(MAX_RETRY_DELAY) > 0 ? MAX_RETRY_DELAY : delay;
    }
}
