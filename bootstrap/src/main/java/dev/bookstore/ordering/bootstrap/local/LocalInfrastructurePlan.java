package dev.bookstore.ordering.bootstrap.local;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.util.StringUtils;

/**
 * What the {@code local} profile has to start, decided from the environment alone:
 *
 * <ul>
 *   <li>nothing unless {@code local} is active (it is the default profile) and neither {@code postgres} nor
 *       {@code sqlserver} is;</li>
 *   <li>the embedded PostgreSQL unless {@code spring.datasource.url} is given;</li>
 *   <li>the embedded AMQP broker unless {@code spring.rabbitmq.host} or {@code spring.rabbitmq.addresses} is
 *       given (the {@code local} profile sets the host to empty, which means "none given").</li>
 * </ul>
 *
 * @param dataDirectory where the embedded servers keep their data ({@value #DATA_DIR_PROPERTY})
 * @param startDatabase whether to start the embedded PostgreSQL
 * @param startBroker   whether to start the embedded AMQP broker
 */
public record LocalInfrastructurePlan(Path dataDirectory, boolean startDatabase, boolean startBroker) {

    public static final String DATA_DIR_PROPERTY = "ordering.local.data-dir";
    static final String DEFAULT_DATA_DIR = "target/local-data";

    private static final Profiles LOCAL_ONLY = Profiles.of("local & !postgres & !sqlserver");

    public LocalInfrastructurePlan {
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        dataDirectory = dataDirectory.toAbsolutePath().normalize();
    }

    /** The plan for {@code environment}; empty when the {@code local} profile is not in force. */
    public static Optional<LocalInfrastructurePlan> of(Environment environment) {
        if (!environment.acceptsProfiles(LOCAL_ONLY)) {
            return Optional.empty();
        }
        boolean databaseGiven = given(environment, "spring.datasource.url");
        boolean brokerGiven = given(environment, "spring.rabbitmq.host")
                || given(environment, "spring.rabbitmq.addresses");
        Path dataDirectory = Path.of(environment.getProperty(DATA_DIR_PROPERTY, DEFAULT_DATA_DIR));
        return Optional.of(new LocalInfrastructurePlan(dataDirectory, !databaseGiven, !brokerGiven));
    }

    /** Whether anything is to be started at all. */
    public boolean startsAnything() {
        return startDatabase || startBroker;
    }

    private static boolean given(Environment environment, String property) {
        return StringUtils.hasText(environment.getProperty(property));
    }
}
