package dev.bookstore.ordering.bootstrap.local;

import dev.bookstore.ordering.adapters.messaging.inbound.InboxQueue;
import dev.bookstore.ordering.adapters.messaging.inbound.InboxQueue.DeadLettering;
import dev.bookstore.ordering.adapters.messaging.inbound.OrderPlacedInboxListener;
import dev.bookstore.ordering.adapters.messaging.outbound.OrderingTopology;
import dev.bookstore.ordering.application.inbox.InboxStore;
import dev.bookstore.ordering.bootstrap.observability.InboxMetrics;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Profile;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the try-out run ({@code TestOrderingApplication}) adds to the service: a demo consumer on its own queue,
 * bound to every order event, so a newcomer sees each order travel from the HTTP request through the outbox and
 * the broker to a consumer, and the relay's pause and resume endpoints. The embedded servers themselves are
 * started earlier, by {@link LocalInfrastructureInitializer}.
 *
 * <p>Only in the {@value #PROFILE} profile, which the try-out run activates: these classes sit below the service's
 * root package in the test sources, where every test that starts the service would otherwise find them by
 * component scanning.
 */
@TestConfiguration(proxyBeanMethods = false)
@Profile(TryOutConfiguration.PROFILE)
@Import({RelayControlController.class, TryOutTokens.class})
public class TryOutConfiguration {

    /** The profile of the try-out run; it exists on the test classpath only. */
    public static final String PROFILE = "tryout";

    static final String DEMO_QUEUE = "ordering.demo-consumer";

    private static final Logger LOG = LoggerFactory.getLogger(TryOutConfiguration.class);

    @Bean
    DemoConsumer demoConsumer() {
        return new DemoConsumer();
    }

    /**
     * The demo consumer's queue recipe. {@code ordering.demo-consumer.dead-lettering}: {@code listener} (the default
     * here: the embedded broker closes the connection on quorum-queue and dead-letter arguments) or {@code broker}
     * (a RabbitMQ given with {@code spring.rabbitmq.host}; on a fresh queue name, since RabbitMQ refuses to redeclare
     * an existing queue with other arguments).
     */
    @Bean
    InboxQueue demoConsumerQueue(Environment environment) {
        String mode = environment.getProperty("ordering.demo-consumer.dead-lettering", "listener");
        int maxDeliveries = environment.getProperty("ordering.demo-consumer.max-deliveries", Integer.class, 5);
        return new InboxQueue(DEMO_QUEUE, DeadLettering.valueOf(mode.trim().toUpperCase(Locale.ROOT)),
                maxDeliveries, Duration.ofSeconds(1));
    }

    /** Declared by Spring AMQP's admin on every (re)connect, like the exchange. */
    @Bean
    Declarables demoConsumerDeclarables(OrderingTopology topology, InboxQueue demoConsumerQueue) {
        return demoConsumerQueue.declarables(topology);
    }

    @Bean
    SimpleMessageListenerContainer demoConsumerContainer(ConnectionFactory connectionFactory, InboxStore inbox,
                                                         PlatformTransactionManager transactions,
                                                         DemoConsumer consumer, InboxQueue demoConsumerQueue,
                                                         InboxMetrics metrics) {
        return new OrderPlacedInboxListener(DemoConsumer.NAME, inbox, new TransactionTemplate(transactions),
                consumer::handle, metrics.duplicateSkipped(DemoConsumer.NAME)).container(connectionFactory,
                demoConsumerQueue);
    }

    @EventListener(ApplicationReadyEvent.class)
    void tellWhereThePageIs(ApplicationReadyEvent ready) {
        Environment environment = ready.getApplicationContext().getEnvironment();
        String port = environment.getProperty("local.server.port");
        if (port != null) {
            LOG.info("Try-out run ready: the live outbox page is at http://localhost:{}/", port);
        }
    }
}
