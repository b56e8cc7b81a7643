package dev.bookstore.ordering.bootstrap.local;

import dev.bookstore.ordering.adapters.messaging.in.OrderPlacedInboxListener;
import dev.bookstore.ordering.adapters.messaging.out.OrderingTopology;
import dev.bookstore.ordering.application.port.out.InboxStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The {@code local} profile's beans: a demo consumer on its own queue, bound to every order event, so a
 * newcomer sees each order travel from the HTTP request through the outbox and the broker to a consumer. The
 * embedded servers themselves are started earlier, by {@link LocalInfrastructureInitializer}.
 */
@Configuration(proxyBeanMethods = false)
@Profile("local")
class LocalProfileConfiguration {

    static final String DEMO_QUEUE = "ordering.demo-consumer";

    private static final Logger LOG = LoggerFactory.getLogger(LocalProfileConfiguration.class);

    @Bean
    DemoConsumer demoConsumer() {
        return new DemoConsumer();
    }

    /** Declared by Spring AMQP's admin on every (re)connect, like the exchange. */
    @Bean
    Declarables demoConsumerDeclarables(OrderingTopology topology) {
        return topology.consumerDeclarables(new Queue(DEMO_QUEUE, true));
    }

    @Bean
    SimpleMessageListenerContainer demoConsumerContainer(ConnectionFactory connectionFactory, InboxStore inbox,
                                                         PlatformTransactionManager transactions,
                                                         DemoConsumer consumer) {
        return new OrderPlacedInboxListener(DemoConsumer.NAME, inbox, new TransactionTemplate(transactions),
                consumer::handle).container(connectionFactory, DEMO_QUEUE);
    }

    @EventListener(ApplicationReadyEvent.class)
    void tellWhereThePageIs(ApplicationReadyEvent ready) {
        Environment environment = ready.getApplicationContext().getEnvironment();
        String port = environment.getProperty("local.server.port");
        if (port != null) {
            LOG.info("Local profile ready: the live outbox page is at http://localhost:{}/", port);
        }
    }
}
