package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.adapters.messaging.outbound.OrderEventContract;
import dev.bookstore.ordering.adapters.messaging.outbound.OrderingTopology;
import dev.bookstore.ordering.adapters.messaging.outbound.RabbitMessagePublisher;
import dev.bookstore.ordering.application.outbox.EventExternalizer;
import dev.bookstore.ordering.application.outbox.relay.MessagePublisher;
import dev.bookstore.ordering.bootstrap.tracing.TracingMessagePublisher;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * RabbitMQ: the wire contract, the exchange (declared by Spring AMQP's admin whenever a connection opens, so a
 * broker that comes back empty gets it again), and the confirming publisher the relay uses,
 * in a producer span of the trace stored with each message.
 */
@Configuration(proxyBeanMethods = false)
class MessagingConfiguration {

    @Bean
    OrderingTopology orderingTopology(OutboxProperties properties) {
        return new OrderingTopology(properties.exchange());
    }

    @Bean
    Declarables orderingDeclarables(OrderingTopology topology) {
        return topology.declarables();
    }

    @Bean
    EventExternalizer eventExternalizer(OutboxProperties properties) {
        return new OrderEventContract(properties.exchange());
    }

    @Bean
    MessagePublisher messagePublisher(ConnectionFactory connectionFactory, ObjectProvider<Propagator> propagator) {
        return new TracingMessagePublisher(new RabbitMessagePublisher(connectionFactory),
                propagator.getIfAvailable(() -> Propagator.NOOP));
    }
}
