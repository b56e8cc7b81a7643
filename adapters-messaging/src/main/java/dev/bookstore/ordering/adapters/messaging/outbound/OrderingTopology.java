package dev.bookstore.ordering.adapters.messaging.outbound;

import java.util.Objects;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.ExchangeBuilder;
import org.springframework.amqp.core.TopicExchange;

/**
 * The broker objects the ordering service owns: one durable topic exchange that every order event goes to, with
 * routing keys {@code order.placed} and {@code order.cancelled}. Queues belong to consumers, which bind them with
 * {@value #ALL_ORDER_EVENTS}. Exposed as a bean, {@link #declarables()} is declared by the {@code RabbitAdmin} on
 * every (re)connect.
 */
public final class OrderingTopology {

    /** The binding pattern for every order event. */
    public static final String ALL_ORDER_EVENTS = "order.#";

    private final String exchangeName;

    public OrderingTopology(String exchangeName) {
        this.exchangeName = Objects.requireNonNull(exchangeName, "exchangeName");
    }

    /** Durable and not auto-deleted: it must outlive every publisher and consumer. */
    public TopicExchange exchange() {
        return ExchangeBuilder.topicExchange(exchangeName).durable(true).build();
    }

    public Declarables declarables() {
        return new Declarables(exchange());
    }
}
