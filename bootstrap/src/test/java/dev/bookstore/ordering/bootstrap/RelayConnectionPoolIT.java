package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.bootstrap.config.RelayConnectionPool;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The relay's pool is a bulkhead, on the real PostgreSQL and RabbitMQ: with every connection of the API's pool
 * taken (as a burst of requests takes them), the relay still claims, publishes and marks on connections of its own,
 * {@code ordering-relay}; and the API's pool stays the only data source Boot knows.
 */
class RelayConnectionPoolIT {

    private static final String RELAY_POOL = "ordering-relay";

    private final List<ServiceInstance> instances = new ArrayList<>();
    private OutboxTestBed bed;
    private TestDatabase database;
    private JdbcTemplate jdbc;
    private TestRabbit.Broker broker;
    private CachingConnectionFactory consumerConnection;
    private RabbitAdmin admin;
    private String exchange;
    private Queue queue;
    private final List<String> receivedIds = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void freshDatabaseExchangeAndQueue() {
        bed = OutboxTestBed.create();
        database = bed.database();
        jdbc = bed.jdbc();
        broker = bed.broker();
        consumerConnection = bed.consumerConnection();
        admin = bed.admin();
        exchange = bed.exchange();
        queue = bed.queue();
    }

    @AfterEach
    void stopEverything() {
        instances.forEach(ServiceInstance::close);
        bed.close();
    }

    private ServiceInstance start(Map<String, String> overrides) {
        Map<String, String> properties = new HashMap<>(overrides);
        properties.put("spring.rabbitmq.username", broker.username());
        properties.put("spring.rabbitmq.password", broker.password());
        ServiceInstance instance = ServiceInstance.start(database, broker.host(), broker.port(), exchange, properties);
        instances.add(instance);
        return instance;
    }

    @Test
    void withEveryConnectionOfTheApiPoolHeldTheRelayStillPublishesOnItsOwnPool() throws SQLException {
        ServiceInstance instance = start(Map.of(
                "spring.datasource.hikari.maximum-pool-size", "2",
                "spring.datasource.hikari.connection-timeout", "1000",
                "ordering.outbox.workers", "2",
                // no commit of this instance rings for the rows below: the relay finds them at its poll
                "ordering.outbox.poll-interval", "100ms",
                "ordering.outbox.poll-interval-when-notified", "100ms"));
        DataSource api = instance.bean(DataSource.class); // one DataSource bean: Boot's, the API's
        HikariDataSource apiPool = api.unwrap(HikariDataSource.class);
        assertThat(apiPool.getPoolName()).isNotEqualTo(RELAY_POOL);
        assertThat(apiPool.getMaximumPoolSize()).isEqualTo(2);
        int rows = 50;

        try (HeldConnections held = HeldConnections.all(api, 2)) {

            jdbc.update("""
                    INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key,
                                                payload, occurred_at)
                    SELECT gen_random_uuid(), 'order', gen_random_uuid()::text, 'bookstore.order-placed.v1', ?,
                           'order.placed', '{"orderId":"x"}'::jsonb, now()
                    FROM generate_series(1, ?)""", exchange, rows);

            long written = System.nanoTime();
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .until(() -> count("status = 'PUBLISHED'") == rows);
            System.out.printf("relay pool: %d rows published %d ms after they were written, every connection of "
                    + "the API's pool held%n", rows, Duration.ofNanos(System.nanoTime() - written).toMillis());
            await().atMost(Duration.ofSeconds(10)).until(() -> drainQueue() >= rows);
            assertThat(receivedIds).hasSize(rows).doesNotHaveDuplicates();
            assertThat(Set.copyOf(receivedIds)).isEqualTo(outboxIds());
            assertThat(count("attempts > 0")).isZero();
            assertThat(apiPool.getHikariPoolMXBean().getActiveConnections())
                    .as("the API's connections are still the test's").isEqualTo(2);
        }

        MeterRegistry meters = instance.bean(MeterRegistry.class);
        assertThat(meters.get("hikaricp.connections.max").tag("pool", RELAY_POOL).gauge().value())
                .as("workers + 1").isEqualTo(3.0);
        assertThat(meters.get("hikaricp.connections.max").tag("pool", apiPool.getPoolName()).gauge().value())
                .isEqualTo(2.0);
    }

    @Test
    void theRelayPoolTakesItsConfiguredSizeAndClosesWithTheService() {
        ServiceInstance instance = start(Map.of("ordering.outbox.relay-pool.maximum-size", "4"));
        HikariDataSource relayPool = instance.bean(RelayConnectionPool.class).pool();
        assertThat(relayPool.getPoolName()).isEqualTo(RELAY_POOL);
        assertThat(relayPool.getMaximumPoolSize()).isEqualTo(4);
        assertThat(relayPool.getConnectionInitSql()).as("on PostgreSQL, what JdbcOutboxStore asks of the relay's "
                + "connections").isEqualTo("SET synchronous_commit TO off");
        assertThat(instance.bean(MeterRegistry.class).get("hikaricp.connections.max").tag("pool", RELAY_POOL)
                .gauge().value()).isEqualTo(4.0);
        assertThat(relayPool.isClosed()).isFalse();

        instances.remove(instance);
        instance.close();

        assertThat(relayPool.isClosed()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()",
                Integer.class, database.name()) == 0);
    }

    /** Moves whatever has arrived in the test queue into {@link #receivedIds}; returns how many are there. */
    private int drainQueue() {
        RabbitTemplate template = new RabbitTemplate(consumerConnection);
        Message message;
        while ((message = template.receive(queue.getName())) != null) {
            receivedIds.add(message.getMessageProperties().getMessageId());
        }
        return receivedIds.size();
    }

    private Set<String> outboxIds() {
        return Set.copyOf(jdbc.queryForList("SELECT id::text FROM outbox_message", String.class));
    }

    private long count(String where) {
        return jdbc.queryForObject("SELECT count(*) FROM outbox_message WHERE " + where, Long.class);
    }
}
