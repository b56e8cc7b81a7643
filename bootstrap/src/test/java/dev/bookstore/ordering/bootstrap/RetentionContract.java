package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.modulith.IncompletePublicationsGauge;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.bootstrap.retention.RetentionJob;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Retention on each engine (PostgreSQL, MariaDB; one subclass per engine): published outbox rows go after their
 * retention, parked and pending rows never do; the incomplete Modulith publications are counted in a gauge.
 */
abstract class RetentionContract {

    private static final long HOUR = Duration.ofHours(1).toMillis();
    private static final long DAY = Duration.ofDays(1).toMillis();

    /** The engine the service runs on, a database of its own for each test. */
    protected abstract TestEngine engine();

    private TestDatabase database;
    private DataSource dataSource;
    private JdbcTemplate jdbc;
    private ServiceInstance instance;
    private TestRabbit.Broker broker;
    private final String exchange = TestRabbit.uniqueExchange();

    @BeforeEach
    void startInstance() {
        database = engine().newDatabase();
        dataSource = new DriverManagerDataSource(database.url(), database.username(), database.password());
        jdbc = new JdbcTemplate(dataSource);
        broker = TestRabbit.broker();
        Map<String, String> properties = new HashMap<>();
        properties.put("spring.rabbitmq.username", broker.username());
        properties.put("spring.rabbitmq.password", broker.password());
        properties.put("ordering.outbox.relay", "none");
        // The tests run the jobs themselves; the schedule must not race them.
        properties.put("ordering.outbox.retention-interval", "1h");
        properties.put("ordering.idempotency.retention-interval", "1h");
        properties.put("ordering.outbox.retention", "1d");
        properties.put("ordering.modulith.incomplete-publications-interval", "200ms");
        instance = ServiceInstance.start(database, broker.host(), broker.port(), exchange,
                properties);
    }

    @AfterEach
    void stop() {
        instance.close();
        broker.delete(List.of(exchange), List.of());
        database.drop();
    }

    @Test
    void theOutboxRetentionDeletesOldPublishedRowsAndNeverParkedOrPendingOnes() {
        UUID oldPublished = insert("PUBLISHED", engine().plusMillis(engine().now(), -2 * DAY));
        UUID recentPublished = insert("PUBLISHED", engine().plusMillis(engine().now(), -HOUR));
        UUID oldParked = insert("PARKED", null);
        UUID oldPending = insert("PENDING", null);
        jdbc.update("UPDATE outbox_message SET occurred_at = %1$s, created_at = %1$s, next_attempt_at = %2$s"
                .formatted(engine().plusMillis(engine().now(), -30 * DAY), engine().plusMillis(engine().now(), DAY)));

        int deleted = instance.bean("outboxRetentionJob", RetentionJob.class).purge();

        assertThat(deleted).isEqualTo(1);
        assertThat(jdbc.query("SELECT id FROM outbox_message", (rs, row) -> UUID.fromString(rs.getString(1))))
                .containsExactlyInAnyOrder(recentPublished, oldParked, oldPending)
                .doesNotContain(oldPublished);
    }

    @Test
    void incompleteModulithPublicationsAreCountedInAGaugeRefreshedOnASchedule() {
        MeterRegistry registry = instance.bean(MeterRegistry.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> gauge(registry) == 0.0);

        String publications = EventPublications.table(engine());
        for (String status : List.of("'PUBLISHED'", "'FAILED'", "'COMPLETED'")) {
            jdbc.update("INSERT INTO " + publications + " (id, listener_id, event_type, serialized_event, "
                    + "publication_date, status) VALUES (?, 'listener', 'OrderPlaced', '{}', " + engine().now() + ", "
                    + status + ")", engine().database().id(UUID.randomUUID()));
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> gauge(registry) == 2.0);
        jdbc.update("UPDATE " + publications + " SET status = 'COMPLETED', completion_date = " + engine().now());
        await().atMost(Duration.ofSeconds(5)).until(() -> gauge(registry) == 0.0);
    }

    private static double gauge(MeterRegistry registry) {
        return registry.get(IncompletePublicationsGauge.NAME).gauge().value();
    }

    private UUID insert(String status, String publishedAt) {
        UUID id = UUID.randomUUID();
        jdbc.update("INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, "
                + "payload, occurred_at, status, published_at) VALUES (?, 'order', 'order-1', "
                + "'bookstore.order-placed.v1', 'x', 'order.placed', " + engine().json("'{}'") + ", " + engine().now()
                + ", ?, " + (publishedAt == null ? "NULL" : publishedAt) + ")", engine().database().id(id), status);
        return id;
    }
}
