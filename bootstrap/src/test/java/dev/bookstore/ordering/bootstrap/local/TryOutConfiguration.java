package dev.bookstore.ordering.bootstrap.local;

import dev.bookstore.ordering.adapters.messaging.outbound.OrderingTopology;
import dev.bookstore.ordering.consumer.InboxQueue.DeadLettering;
import dev.bookstore.ordering.consumer.InboxQueue;
import dev.bookstore.ordering.consumer.InboxRetention;
import dev.bookstore.ordering.consumer.JdbcInboxStore;
import dev.bookstore.ordering.consumer.OrderPlacedInboxListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Locale;
import javax.sql.DataSource;
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
 * the broker to a consumer, and the relay's pause and resume endpoints. The demo consumer is wired as a consuming
 * service wires {@code ordering-consumer-inbox}; its inbox is the {@code inbox_message} table of the service's own
 * database (made by the service's V1 migration, the module's schema). The embedded servers themselves are started
 * earlier, by {@link LocalInfrastructureInitializer}.
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
        return demoConsumerQueue.declarables(topology.exchange().getName());
    }

    @Bean
    JdbcInboxStore demoConsumerInbox(DataSource dataSource) {
        return new JdbcInboxStore(dataSource);
    }

    /** Runs with the service's scheduling, as in a consumer with {@code @EnableScheduling}. */
    @Bean
    InboxRetention demoConsumerInboxRetention(JdbcInboxStore demoConsumerInbox) {
        return new InboxRetention(demoConsumerInbox, Duration.ofDays(7), Duration.ofMinutes(1), 1000);
    }

    @Bean
    SimpleMessageListenerContainer demoConsumerContainer(ConnectionFactory connectionFactory,
                                                         JdbcInboxStore demoConsumerInbox,
                                                         PlatformTransactionManager transactions,
                                                         DemoConsumer consumer, InboxQueue demoConsumerQueue,
                                                         MeterRegistry registry) {
        Counter duplicates = Counter.builder("ordering.inbox.duplicates.skipped")
                .description("Messages an inbox had processed before and skipped")
                .tag("consumer", DemoConsumer.NAME).register(registry);
        return new OrderPlacedInboxListener(DemoConsumer.NAME, demoConsumerInbox,
                new TransactionTemplate(transactions), consumer::handle, duplicates::increment)
                .container(connectionFactory, demoConsumerQueue);
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
