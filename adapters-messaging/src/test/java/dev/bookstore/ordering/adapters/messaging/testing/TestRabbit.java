package dev.bookstore.ordering.adapters.messaging.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.springframework.amqp.core.AnonymousQueue;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory.ConfirmType;
import org.springframework.amqp.rabbit.core.RabbitAdmin;

/**
 * Finds a real RabbitMQ for integration tests, in this order:
 *
 * <ol>
 *   <li>{@code ORDERING_TEST_RABBITMQ_HOST} (with {@code _PORT}, {@code _USERNAME}, {@code _PASSWORD}, defaulting
 *       to 5672 and guest/guest) when set;</li>
 *   <li>a broker on {@code 127.0.0.1:5672} with guest/guest when something accepts connections there;</li>
 *   <li>a Testcontainers RabbitMQ when a Docker engine is available (started once per JVM);</li>
 *   <li>otherwise the calling test is skipped, with the reason.</li>
 * </ol>
 *
 * <p>Tests never share broker objects: each declares its own exchange ({@link #uniqueExchange()}) and queues,
 * and deletes them afterwards. Outages are simulated with a {@code TcpProxy}, never by stopping the broker.
 */
public final class TestRabbit {

    public static final String ENV_HOST = "ORDERING_TEST_RABBITMQ_HOST";
    public static final String ENV_PORT = "ORDERING_TEST_RABBITMQ_PORT";
    public static final String ENV_USERNAME = "ORDERING_TEST_RABBITMQ_USERNAME";
    public static final String ENV_PASSWORD = "ORDERING_TEST_RABBITMQ_PASSWORD";

    private static final String LOCAL_HOST = "127.0.0.1";
    private static final int DEFAULT_PORT = 5672;
    private static final String CONTAINER_IMAGE = "rabbitmq:3.13-alpine";

    private static Broker broker;
    private static String unavailableReason;

    private TestRabbit() {
    }

    /** Where the broker is and how to log in. */
    public record Broker(String host, int port, String username, String password, String foundBy) {

        /**
         * A connection factory the way the service configures it: simple publisher confirms and no publisher
         * returns (plain confirm-mode channels; {@code RabbitMessagePublisher} settles confirms and returns itself).
         */
        public CachingConnectionFactory connectionFactory() {
            return connectionFactory(host, port);
        }

        /** The same, but connecting to another address, e.g. a {@code TcpProxy} in front of this broker. */
        public CachingConnectionFactory connectionFactory(String host, int port) {
            CachingConnectionFactory factory = new CachingConnectionFactory(host, port);
            factory.setUsername(username);
            factory.setPassword(password);
            factory.setPublisherConfirmType(ConfirmType.SIMPLE);
            factory.setPublisherReturns(false);
            factory.setConnectionTimeout(5_000);
            return factory;
        }

        /**
         * Deletes a test's exchanges and queues (those that are not there are skipped), for tests whose service
         * declared them; call it after the service's context is closed, or its listener containers declare them again.
         */
        public void delete(List<String> exchanges, List<String> queues) {
            CachingConnectionFactory factory = connectionFactory();
            try {
                RabbitAdmin admin = new RabbitAdmin(factory);
                queues.forEach(admin::deleteQueue);
                exchanges.forEach(admin::deleteExchange);
            } finally {
                factory.destroy();
            }
        }

        /**
         * A durable topic exchange no other test uses, and a queue bound to it with {@code pattern}, declared on a
         * connection of their own; the test deletes them and closes the connection when it is done.
         */
        public TopicQueue topicQueue(String pattern) {
            CachingConnectionFactory connection = connectionFactory();
            RabbitAdmin admin = new RabbitAdmin(connection);
            String exchange = uniqueExchange();
            TopicExchange topic = new TopicExchange(exchange, true, false);
            Queue queue = new AnonymousQueue();
            admin.declareExchange(topic);
            admin.declareQueue(queue);
            admin.declareBinding(BindingBuilder.bind(queue).to(topic).with(pattern));
            return new TopicQueue(connection, admin, exchange, queue);
        }

        /** A plain RabbitMQ Java client factory, for asserting on the wire without Spring AMQP in between. */
        public com.rabbitmq.client.ConnectionFactory rawConnectionFactory() {
            com.rabbitmq.client.ConnectionFactory factory = new com.rabbitmq.client.ConnectionFactory();
            factory.setHost(host);
            factory.setPort(port);
            factory.setUsername(username);
            factory.setPassword(password);
            factory.setConnectionTimeout(5_000);
            factory.setAutomaticRecoveryEnabled(false);
            return factory;
        }
    }

    /** What {@link Broker#topicQueue} declared, and the connection it declared it on. */
    public record TopicQueue(CachingConnectionFactory connection, RabbitAdmin admin, String exchange, Queue queue) {
    }

    /** The broker to test against; skips the calling test (JUnit assumption) when there is none. */
    public static synchronized Broker broker() {
        if (broker == null && unavailableReason == null) {
            discover();
        }
        Assumptions.assumeTrue(broker != null, () -> "No RabbitMQ for integration tests: " + unavailableReason);
        return broker;
    }

    /** An exchange name no other test uses: {@code bookstore.ordering.it-<random>}. */
    public static String uniqueExchange() {
        return "bookstore.ordering.it-" + UUID.randomUUID();
    }

    /** A queue name no other test uses. */
    public static String uniqueQueue(String purpose) {
        return "ordering-it." + purpose + "." + UUID.randomUUID();
    }

    private static void discover() {
        String host = System.getenv(ENV_HOST);
        if (host != null && !host.isBlank()) {
            broker = new Broker(host, Integer.parseInt(env(ENV_PORT, String.valueOf(DEFAULT_PORT))),
                    env(ENV_USERNAME, "guest"), env(ENV_PASSWORD, "guest"), "environment " + ENV_HOST);
            return;
        }
        if (accepts(LOCAL_HOST, DEFAULT_PORT)) {
            broker = new Broker(LOCAL_HOST, DEFAULT_PORT, "guest", "guest", "local broker on port 5672");
            return;
        }
        broker = Containers.start();
        if (broker == null) {
            unavailableReason = ENV_HOST + " is not set, nothing listens on " + LOCAL_HOST + ":" + DEFAULT_PORT
                    + " and no Docker engine is available for Testcontainers";
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static boolean accepts(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Kept apart so that Testcontainers classes load only when no other broker was found. */
    private static final class Containers {

        static Broker start() {
            if (!org.testcontainers.DockerClientFactory.instance().isDockerAvailable()) {
                return null;
            }
            org.testcontainers.rabbitmq.RabbitMQContainer container =
                    new org.testcontainers.rabbitmq.RabbitMQContainer(CONTAINER_IMAGE);
            container.start(); // stopped with the JVM by Testcontainers' reaper
            return new Broker(container.getHost(), container.getAmqpPort(), container.getAdminUsername(),
                    container.getAdminPassword(), "Testcontainers " + CONTAINER_IMAGE);
        }
    }
}
