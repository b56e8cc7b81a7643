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
 * The queue recipe of a consumer that uses {@link OrderPlacedInboxListener}: its queue, bound to every order event
 * ({@value #ALL_ORDER_EVENTS}), and a dead-letter exchange ({@code <name>.dlx}, direct) with a dead-letter queue
 * ({@code <name>.dlq}) where the listener puts a message it gives up on, with the reason. Who bounds the deliveries:
 *
 * <ul>
 *   <li>{@link DeadLettering#BROKER} (RabbitMQ): a quorum queue with {@code x-delivery-limit = maxDeliveries} and the
 *       dead-letter exchange, so the broker dead-letters a message itself should the listener fail to (a consumer
 *       that dies on it); deliveries are counted by the broker across every consumer of the queue.</li>
 *   <li>{@link DeadLettering#LISTENER}, for brokers that refuse these arguments: a plain durable queue; the listener
 *       counts the deliveries of each message id in memory (per instance, lost on restart).</li>
 * </ul>
 *
 * <p>Between two deliveries of a failing message the listener waits {@code retryDelay}, doubled per failure up to
 * {@link #MAX_RETRY_DELAY}: no hot requeue loop.
 *
 * @param name          the consumer's queue
 * @param deadLettering who enforces the delivery limit and dead-letters
 * @param maxDeliveries deliveries of a failing message, the last one included, before it is dead-lettered
 * @param retryDelay    the wait before the first redelivery
 */
public record InboxQueue(String name, DeadLettering deadLettering, int maxDeliveries, Duration retryDelay) {

    /** The ordering service's topic exchange, where every order event is published. */
    public static final String ORDER_EVENTS_EXCHANGE = "bookstore.ordering";

    /** The binding pattern for every order event. */
    public static final String ALL_ORDER_EVENTS = "order.#";

    /** The longest wait between two deliveries of a failing message. */
    public static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);

    /** Who bounds the retries of a failing message and moves it to the dead-letter queue. */
    public enum DeadLettering {
        /** A quorum queue with a delivery limit and a dead-letter exchange (RabbitMQ). */
        BROKER,
        /** A plain queue; the listener counts deliveries and dead-letters (brokers without those arguments). */
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
