package dev.bookstore.ordering.adapters.messaging.outbound;

import java.util.Objects;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.ExchangeBuilder;
import org.springframework.amqp.core.TopicExchange;

/**
 * The broker objects the ordering service owns: one durable topic exchange ({@value
 * OrderEventContract#DEFAULT_EXCHANGE} by default) that every order event goes to, with routing keys
 * {@code order.placed} and {@code order.cancelled}. Queues belong to consumers, which bind them with
 * {@value #ALL_ORDER_EVENTS} for every order event ({@code ordering-events-consumer}'s {@code InboxQueue} does).
 *
 * <p>In a Spring context, expose {@link #declarables()} as a bean and the {@code RabbitAdmin} declares it on every
 * (re)connect; without one, call {@link #declareWith(AmqpAdmin)}.
 */
public final class OrderingTopology {

    /** The binding pattern for every order event. */
    public static final String ALL_ORDER_EVENTS = "order.#";

    private final String exchangeName;

    public OrderingTopology() {
        this(OrderEventContract.DEFAULT_EXCHANGE);
    }

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

    /** Declares the exchange now (idempotent: redeclaring with the same arguments is a no-op). */
    public void declareWith(AmqpAdmin admin) {
        admin.declareExchange(exchange());
    }
}
