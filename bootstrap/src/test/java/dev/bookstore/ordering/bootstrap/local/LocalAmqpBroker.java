package dev.bookstore.ordering.bootstrap.local;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.qpid.server.SystemLauncher;
import org.apache.qpid.server.SystemLauncherListener;
import org.apache.qpid.server.model.Broker;
import org.apache.qpid.server.model.ConfiguredObject;
import org.apache.qpid.server.model.Port;
import org.apache.qpid.server.model.SystemConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An AMQP 0-9-1 broker inside this JVM (Apache Qpid Broker-J), on a free port of 127.0.0.1, with publisher
 * confirms, user {@value #USERNAME}/{@value #PASSWORD} and one in-memory virtual host. Its configuration and its
 * messages live in memory: the outbox in PostgreSQL is what survives a restart, and the relay publishes whatever
 * was pending again.
 *
 * <p>One difference from RabbitMQ matters to the publisher: a {@code mandatory} message that no queue takes is
 * answered with a nack here, where RabbitMQ returns it and then acks. Both mean "not delivered".
 */
final class LocalAmqpBroker implements AutoCloseable {

    static final String USERNAME = "guest";
    static final String PASSWORD = "guest";

    private static final String PORT_NAME = "AMQP";

    /**
     * Broker-J's initial configuration. PLAIN is allowed without TLS (its default is TLS only) because the port is
     * bound to the loopback address.
     */
    private static final String INITIAL_CONFIGURATION = """
            {
              "name": "ordering-local",
              "modelVersion": "9.1",
              "authenticationproviders": [ {
                "name": "plain",
                "type": "Plain",
                "secureOnlyMechanisms": [],
                "users": [ { "name": "%s", "type": "managed", "password": "%s" } ]
              } ],
              "ports": [ {
                "name": "%s",
                "type": "AMQP",
                "port": 0,
                "bindingAddress": "127.0.0.1",
                "protocols": [ "AMQP_0_9_1" ],
                "authenticationProvider": "plain",
                "virtualhostaliases": [
                  { "name": "nameAlias", "type": "nameAlias" },
                  { "name": "defaultAlias", "type": "defaultAlias" }
                ]
              } ],
              "virtualhostnodes": [ {
                "name": "default",
                "type": "Memory",
                "defaultVirtualHostNode": "true",
                "virtualHostInitialConfiguration": "{\\"type\\": \\"Memory\\"}"
              } ]
            }
            """.formatted(USERNAME, PASSWORD, PORT_NAME);

    private static final Logger LOG = LoggerFactory.getLogger(LocalAmqpBroker.class);

    private final SystemLauncher launcher;
    private final SystemConfig<?> systemConfig;
    private final int port;

    private LocalAmqpBroker(SystemLauncher launcher, SystemConfig<?> systemConfig, int port) {
        this.launcher = launcher;
        this.systemConfig = systemConfig;
        this.port = port;
    }

    /** Starts the broker; {@code workDirectory} receives its initial configuration files and nothing else of worth. */
    static LocalAmqpBroker start(Path workDirectory) throws IOException {
        Files.createDirectories(workDirectory);
        Path configuration = workDirectory.resolve("initial-config.json");
        Files.writeString(configuration, INITIAL_CONFIGURATION);
        // Without a file of its own, Broker-J reads classpath:system.properties through a URL handler that the
        // JDK cannot find inside an executable jar.
        Path systemProperties = workDirectory.resolve("system.properties");
        Files.writeString(systemProperties, "# no system properties for the embedded broker\n");

        Map<String, Object> context = new HashMap<>();
        context.put(SystemConfig.QPID_WORK_DIR, workDirectory.toAbsolutePath().toString());
        context.put("qpid.broker.defaultPreferenceStoreAttributes", "{\"type\": \"Noop\"}");
        Map<String, Object> attributes = new HashMap<>();
        attributes.put(ConfiguredObject.TYPE, "Memory"); // the broker's own configuration store
        attributes.put(SystemConfig.INITIAL_CONFIGURATION_LOCATION, configuration.toUri().toString());
        attributes.put(SystemConfig.INITIAL_SYSTEM_PROPERTIES_LOCATION, systemProperties.toUri().toString());
        attributes.put(SystemConfig.STARTUP_LOGGED_TO_SYSTEM_OUT, Boolean.FALSE);
        attributes.put(ConfiguredObject.CONTEXT, context);

        StartupOutcome outcome = new StartupOutcome();
        SystemLauncher launcher = new SystemLauncher(outcome);
        try {
            launcher.startup(attributes);
        } catch (Exception e) {
            throw new IOException("The embedded AMQP broker did not start", e);
        }
        // SystemLauncher reports start-up failures to its listener instead of throwing them.
        if (outcome.failure != null || outcome.systemConfig == null) {
            if (outcome.failure == null) {
                launcher.shutdown(); // after a reported failure the launcher has cleaned up already
            }
            throw new IOException("The embedded AMQP broker did not start", outcome.failure);
        }
        Broker<?> broker = (Broker<?>) outcome.systemConfig.getContainer();
        OptionalInt port = broker.getChildren(Port.class).stream()
                .filter(candidate -> PORT_NAME.equals(candidate.getName()))
                .mapToInt(Port::getBoundPort)
                .findFirst();
        if (port.isEmpty()) {
            launcher.shutdown();
            throw new IOException("The embedded AMQP broker has no " + PORT_NAME + " port");
        }
        unregisterOwnShutdownHook(broker);
        return new LocalAmqpBroker(launcher, outcome.systemConfig, port.getAsInt());
    }

    /**
     * Broker-J registers a JVM shutdown hook that closes the broker at once, racing Spring's orderly shutdown
     * (listeners and relay first, the broker last) and filling the log of every Ctrl-C with connection errors.
     * The application context closes the broker instead. There is no setting for this, hence reflection; if a
     * Broker-J upgrade renames the field, its hook simply stays.
     */
    private static void unregisterOwnShutdownHook(Broker<?> broker) {
        for (Class<?> type = broker.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field field = type.getDeclaredField("_shutdownHook");
                field.setAccessible(true);
                if (field.get(broker) instanceof Thread hook) {
                    Runtime.getRuntime().removeShutdownHook(hook);
                }
                return;
            } catch (NoSuchFieldException e) {
                // look in the superclass
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.debug("Broker-J keeps its own shutdown hook", e);
                return;
            }
        }
    }

    int port() {
        return port;
    }

    /** Stops the broker, unless Broker-J's own shutdown hook (where it could not be removed) did already. */
    @Override
    public void close() {
        if (!systemConfig.getTaskExecutor().isRunning()) {
            LOG.debug("The embedded AMQP broker was stopped by its own shutdown hook");
            return;
        }
        try {
            launcher.shutdown();
        } catch (IllegalStateException e) {
            LOG.debug("The embedded AMQP broker was stopped concurrently by its own shutdown hook", e);
        }
    }

    private static final class StartupOutcome extends SystemLauncherListener.DefaultSystemLauncherListener {

        private volatile SystemConfig<?> systemConfig;
        private volatile RuntimeException failure;

        @Override
        public void onContainerResolve(SystemConfig<?> systemConfig) {
            this.systemConfig = systemConfig;
        }

        @Override
        public void errorOnStartup(RuntimeException e) {
            this.failure = e;
        }
    }
}
