package dev.bookstore.ordering.bootstrap.local;

import java.nio.file.Path;
import java.util.Objects;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * What the try-out run has to start, decided from the environment alone:
 *
 * <ul>
 *   <li>the embedded PostgreSQL unless {@code spring.datasource.url} is given (the {@code postgres} and
 *       {@code sqlserver} profiles give one);</li>
 *   <li>the embedded AMQP broker unless {@code spring.rabbitmq.host} or {@code spring.rabbitmq.addresses} is
 *       given (the try-out run's {@code application-tryout.yml} sets the host to empty, which means "none
 *       given"; the service's own {@code application.yml} says {@code localhost}).</li>
 * </ul>
 *
 * @param dataDirectory where the embedded servers keep their data ({@value #DATA_DIR_PROPERTY})
 * @param startDatabase whether to start the embedded PostgreSQL
 * @param startBroker   whether to start the embedded AMQP broker
 */
public record LocalInfrastructurePlan(Path dataDirectory, boolean startDatabase, boolean startBroker) {

    public static final String DATA_DIR_PROPERTY = "ordering.local.data-dir";
    static final String DEFAULT_DATA_DIR = "target/local-data";

    public LocalInfrastructurePlan {
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        dataDirectory = dataDirectory.toAbsolutePath().normalize();
    }

    /** The plan for {@code environment}. */
    public static LocalInfrastructurePlan of(Environment environment) {
        boolean databaseGiven = given(environment, "spring.datasource.url");
        boolean brokerGiven = given(environment, "spring.rabbitmq.host")
                || given(environment, "spring.rabbitmq.addresses");
        Path dataDirectory = Path.of(environment.getProperty(DATA_DIR_PROPERTY, DEFAULT_DATA_DIR));
        return new LocalInfrastructurePlan(dataDirectory, !databaseGiven, !brokerGiven);
    }

    /** Whether anything is to be started at all. */
    public boolean startsAnything() {
        return startDatabase || startBroker;
    }

    private static boolean given(Environment environment, String property) {
        return StringUtils.hasText(environment.getProperty(property));
    }
}
