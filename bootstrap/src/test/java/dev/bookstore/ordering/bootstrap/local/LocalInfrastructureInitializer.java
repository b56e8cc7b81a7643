package dev.bookstore.ordering.bootstrap.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the try-out run's embedded PostgreSQL and AMQP broker <b>before</b> any bean is created, so that the
 * data source, Flyway and the RabbitMQ connection factory read the embedded servers' addresses like any other
 * {@code spring.datasource.*} / {@code spring.rabbitmq.*} properties. Only {@code TestOrderingApplication} adds
 * it (not a {@code spring.factories} entry, which would start the servers for every test that starts the
 * service); it starts what {@link LocalInfrastructurePlan} asks for.
 *
 * <p>The servers are registered as the context's first disposable bean: the context destroys beans in reverse
 * order, so they stop last, after the relay, the listeners and the connection pool.
 */
public final class LocalInfrastructureInitializer
        implements ApplicationContextInitializer<ConfigurableApplicationContext>, Ordered {

    /** The bean name of the {@link LocalInfrastructure}, and the name of its property source. */
    public static final String NAME = "localInfrastructure";

    private static final Logger LOG = LoggerFactory.getLogger(LocalInfrastructureInitializer.class);

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        if (context.getParent() != null) {
            return; // a child context shares its parent's infrastructure
        }
        LocalInfrastructurePlan plan = LocalInfrastructurePlan.of(context.getEnvironment());
        if (!plan.startsAnything()) {
            return;
        }
        if (!(context.getBeanFactory() instanceof DefaultSingletonBeanRegistry registry)) {
            throw new IllegalStateException("Cannot tie the embedded servers to the life of a "
                    + context.getBeanFactory().getClass().getName());
        }
        long started = System.nanoTime();
        LocalInfrastructure infrastructure;
        try {
            infrastructure = LocalInfrastructure.start(plan);
        } catch (IOException e) {
            throw new UncheckedIOException("The try-out run could not start its embedded servers in "
                    + plan.dataDirectory() + " (delete that directory to start from scratch)", e);
        }
        registry.registerSingleton(NAME, infrastructure);
        registry.registerDisposableBean(NAME, infrastructure);
        context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource(NAME, infrastructure.connectionProperties()));

        List<String> servers = new ArrayList<>();
        infrastructure.databasePort().ifPresent(port -> servers.add("embedded PostgreSQL on 127.0.0.1:" + port));
        infrastructure.brokerPort().ifPresent(port -> servers.add("embedded AMQP 0-9-1 broker on 127.0.0.1:" + port));
        LOG.info("Try-out run: {} started in {} ms, data in {}", String.join(" and ", servers),
                (System.nanoTime() - started) / 1_000_000, infrastructure.dataDirectory());
    }

    /** After Spring Boot's own initializers, before the context is refreshed. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
