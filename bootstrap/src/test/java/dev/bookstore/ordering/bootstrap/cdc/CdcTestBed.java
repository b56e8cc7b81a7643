package dev.bookstore.ordering.bootstrap.cdc;

import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.cdc.CdcRelay;
import dev.bookstore.ordering.adapters.cdc.CdcSettings;
import dev.bookstore.ordering.adapters.cdc.DatabaseConnection;
import dev.bookstore.ordering.adapters.cdc.JdbcCapturedMessageParking;
import dev.bookstore.ordering.adapters.cdc.OutboxPublication;
import dev.bookstore.ordering.adapters.messaging.outbound.RabbitMessagePublisher;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.outbox.PostgresCaptureLagProbe;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.application.outbox.capture.CaptureSettings;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesService;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesUseCase;
import dev.bookstore.ordering.application.outbox.relay.Backoff;
import dev.bookstore.ordering.application.outbox.relay.RelayMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * What a CDC test needs around the relay: a migrated database of its own on the {@link LogicalPostgres}, a slot name
 * of its own, a durable topic exchange on the real RabbitMQ with a queue bound to it by {@code order.#}.
 * {@link #close()} waits for the slot to be released, drops it (or the server would keep WAL for it) and removes
 * the exchange and queue.
 */
public record CdcTestBed(TestDatabase database, JdbcTemplate jdbc, TestRabbit.Broker broker,
                         CachingConnectionFactory consumerConnection, RabbitAdmin admin, String exchange, Queue queue,
                         String slot) implements AutoCloseable {

    public static CdcTestBed create() {
        return create(LogicalPostgres.newMigratedDatabase());
    }

    /**
     * A bed whose tables are to be in {@code schema}, not {@code public}: its database's URL names the schema
     * ({@code currentSchema=}), which is empty; the first service instance started on it migrates it, as for a
     * service deployed so.
     */
    public static CdcTestBed createUnmigrated(String schema) {
        return create(LogicalPostgres.newDatabase(schema));
    }

    /** A bed on a migrated database of the caller's (on a server with {@code wal_level=logical}). */
    public static CdcTestBed create(TestDatabase database) {
        TestRabbit.Broker broker = TestRabbit.broker();
        JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(database.url(), database.username(),
                database.password()));
        String slot = "cdc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)
                .toLowerCase(Locale.ROOT);
        TestRabbit.TopicQueue topic = broker.topicQueue("order.#");
        return new CdcTestBed(database, jdbc, broker, topic.connection(), topic.admin(), topic.exchange(),
                topic.queue(), slot);
    }

    /** The slot exists and is read: what is committed from now on is streamed ({@code snapshot.mode=no_data}). */
    public void awaitReading() {
        await().atMost(Duration.ofSeconds(60)).until(() -> activeSlots() == 1);
    }

    /**
     * A CDC relay on this bed's database and slot, built as the wiring builds it, publishing through
     * {@code publisherConnection}, its use case wrapped by {@code around} (a test's fault); not started.
     */
    public CdcRelay relay(String instance, Duration leaderPoll, CachingConnectionFactory publisherConnection,
                          CaptureSettings capture, UnaryOperator<RelayCapturedMessagesUseCase> around) {
        return relay(instance, database.url(), leaderPoll, publisherConnection, capture, around);
    }

    /** The same, its connections made with {@code jdbcUrl} (this bed's database through a proxy, say). */
    public CdcRelay relay(String instance, String jdbcUrl, Duration leaderPoll,
                          CachingConnectionFactory publisherConnection, CaptureSettings capture,
                          UnaryOperator<RelayCapturedMessagesUseCase> around) {
        CdcSettings settings = new CdcSettings(new DatabaseConnection(jdbcUrl, database.username(),
                database.password(), Map.of()), OutboxPublication.capturedSchema(jdbc.getDataSource()), slot,
                instance, leaderPoll, new Backoff(Duration.ofMillis(200), Duration.ofSeconds(2), () -> 1.0), null);
        RelayCapturedMessagesService service = new RelayCapturedMessagesService(
                new RabbitMessagePublisher(publisherConnection),
                new JdbcCapturedMessageParking(jdbc.getDataSource()), capture, Clock.systemUTC(), RelayMetrics.NONE);
        return new CdcRelay(settings, around.apply(service), service,
                new PostgresCaptureLagProbe(jdbc.getDataSource(), slot));
    }

    /** The next message in the test queue, or null. */
    public Message receive() {
        return new RabbitTemplate(consumerConnection).receive(queue.getName());
    }

    /** Inserts one outbox row for this bed's exchange, as the service writes one, committed; returns its id. */
    public String insert(String aggregateId, String routingKey) {
        return insert(jdbc, aggregateId, routingKey);
    }

    /** The same through {@code writer}, for a row inserted in a transaction the caller holds open. */
    public String insert(JdbcOperations writer, String aggregateId, String routingKey) {
        UUID id = UUID.randomUUID();
        writer.update("""
                INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                            headers, occurred_at)
                VALUES (?, 'order', ?, 'bookstore.order-placed.v1', ?, ?, ?::jsonb, ?::jsonb, now())""",
                id, aggregateId, exchange, routingKey, "{\"orderId\":\"" + aggregateId + "\"}",
                "{\"traceparent\":\"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\"}");
        return id.toString();
    }

    private int activeSlots() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active",
                Integer.class, slot);
    }

    @Override
    public void close() {
        await().atMost(Duration.ofSeconds(30)).until(() -> activeSlots() == 0);
        jdbc.queryForList("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ?",
                slot);
        admin.deleteQueue(queue.getName());
        admin.deleteExchange(exchange);
        consumerConnection.destroy();
    }
}
