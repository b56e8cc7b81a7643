package dev.bookstore.ordering.adapters.messaging.inbound;

import dev.bookstore.ordering.adapters.messaging.outbound.OrderingTopology;
import java.time.Duration;
import java.util.Objects;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.ExchangeBuilder;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;

/**
 * The queue recipe of a consumer that uses {@link OrderPlacedInboxListener}: its queue, bound to every order event,
 * and a dead-letter exchange ({@code <name>.dlx}, direct) with a dead-letter queue ({@code <name>.dlq}) where a
 * message ends that cannot be processed: one that broke the contract at once, one whose handler failed
 * {@code maxDeliveries} times after {@code maxDeliveries} deliveries. The listener puts it there itself, with the
 * reason in the {@value OrderPlacedInboxListener#REASON_HEADER} header, in both modes:
 *
 * <ul>
 *   <li>{@link DeadLettering#BROKER} (RabbitMQ): the queue is a quorum queue with {@code x-delivery-limit =
 *       maxDeliveries} and the dead-letter exchange as {@code x-dead-letter-exchange}, so the broker dead-letters a
 *       message itself (reason {@code delivery_limit} in {@code x-death}) should the listener ever fail to: a
 *       consumer that dies on the message, a dead-letter publish that fails. Deliveries are counted by the broker
 *       ({@code x-delivery-count}), across every consumer of the queue.</li>
 *   <li>{@link DeadLettering#LISTENER}, for brokers that refuse these queue arguments (the try-out run's embedded
 *       broker closes the connection on them): a plain durable queue without arguments; the listener counts the
 *       deliveries of each message id in memory (per consumer instance, lost on restart).</li>
 * </ul>
 *
 * <p>Between two deliveries of a failing message the listener waits {@code retryDelay}, doubled per failure
 * (at most {@link #MAX_RETRY_DELAY}), before it hands the message back: no hot requeue loop.
 *
 * @param name          the consumer's queue
 * @param deadLettering who enforces the delivery limit and dead-letters
 * @param maxDeliveries deliveries of a failing message, the last one included, before it is dead-lettered
 * @param retryDelay    the wait before the first redelivery
 */
public record InboxQueue(String name, DeadLettering deadLettering, int maxDeliveries, Duration retryDelay) {

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

    /** The consumer's queue, durable; see the class comment for its arguments. */
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
     * The order events' exchange, this queue bound to every order event, the dead-letter exchange and queue: in a
     * Spring context expose them as a bean, and Spring AMQP's admin declares them on every (re)connect.
     */
    public Declarables declarables(OrderingTopology topology) {
        Queue queue = queue();
        return new Declarables(topology.exchange(), queue, binding(queue, topology), deadLetterExchange(),
                deadLetterQueue(), deadLetterBinding());
    }

    private static Binding binding(Queue queue, OrderingTopology topology) {
        return BindingBuilder.bind(queue).to(topology.exchange()).with(OrderingTopology.ALL_ORDER_EVENTS);
    }

    /** Declares all of {@link #declarables} now, without a Spring context. */
    public void declareWith(AmqpAdmin admin, OrderingTopology topology) {
        Queue queue = queue();
        admin.declareExchange(topology.exchange());
        admin.declareQueue(queue);
        admin.declareBinding(binding(queue, topology));
        admin.declareExchange(deadLetterExchange());
        admin.declareQueue(deadLetterQueue());
        admin.declareBinding(deadLetterBinding());
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
