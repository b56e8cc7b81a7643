package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import dev.bookstore.ordering.consumer.InboxQueue.DeadLettering;
import dev.bookstore.ordering.consumer.InboxQueue;
import dev.bookstore.ordering.consumer.JdbcInboxStore;
import dev.bookstore.ordering.consumer.OrderPlacedInboxListener;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListeners;
import org.springframework.test.context.support.AbstractTestExecutionListener;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * One trace from the HTTP request to the consumer, through the outbox, with Micrometer Tracing's OpenTelemetry
 * bridge, against the real PostgreSQL and RabbitMQ: the request's context is stored with the row, the relay's
 * publish span is its child, the message carries the publish span's {@code traceparent}, and the inbox listener's
 * span (Spring AMQP observation) continues it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("postgres")
@ExtendWith(OutputCaptureExtension.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@TestExecutionListeners(listeners = TracingIT.RemoveBrokerObjectsAndDatabase.class,
        mergeMode = TestExecutionListeners.MergeMode.MERGE_WITH_DEFAULTS)
class TracingIT {

    private static final TestDatabase DATABASE = TestPostgres.newDatabase();
    private static final TestRabbit.Broker BROKER = TestRabbit.broker();
    private static final String EXCHANGE = TestRabbit.uniqueExchange();
    private static final String QUEUE = TestRabbit.uniqueQueue("tracing");
    private static final String CONSUMER = "tracing-it";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", DATABASE::url);
        registry.add("spring.datasource.username", DATABASE::username);
        registry.add("spring.datasource.password", DATABASE::password);
        registry.add("spring.rabbitmq.host", BROKER::host);
        registry.add("spring.rabbitmq.port", BROKER::port);
        registry.add("spring.rabbitmq.username", BROKER::username);
        registry.add("spring.rabbitmq.password", BROKER::password);
        registry.add("ordering.outbox.exchange", () -> EXCHANGE);
        registry.add("ordering.outbox.poll-interval", () -> "100ms");
        registry.add("management.tracing.sampling.probability", () -> "1.0");
        registry.add("ordering.outbox.retention-interval", () -> "1h");
        registry.add("ordering.idempotency.retention-interval", () -> "1h");
        registry.add(TestTokens.PUBLIC_KEY_PROPERTY, TestTokens::publicKeyLocation);
        registry.add(TestTokens.AUDIENCES_PROPERTY, () -> TestTokens.AUDIENCE);
    }

    /** The consumer's queue, as the test's context declares it and as the clean-up removes it. */
    private static InboxQueue consumerQueue() {
        return new InboxQueue(QUEUE, DeadLettering.LISTENER, 3, Duration.ofMillis(100));
    }

    /**
     * Removes this test's exchange, queues and dead-letter exchange from the broker, and its database, once the
     * context is closed: its listener container would declare the queues again while it runs. In
     * {@code afterTestClass} the listeners run in reverse order, so this one, ordered first, runs after
     * {@code DirtiesContextTestExecutionListener} has closed the context.
     */
    static final class RemoveBrokerObjectsAndDatabase extends AbstractTestExecutionListener {

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }

        @Override
        public void afterTestClass(TestContext testContext) {
            InboxQueue queue = consumerQueue();
            BROKER.delete(List.of(EXCHANGE, queue.deadLetterExchangeName()),
                    List.of(QUEUE, queue.deadLetterQueueName()));
            TestPostgres.drop(DATABASE);
        }
    }

    /** Spans as the OpenTelemetry SDK hands them to an exporter. */
    static final class RecordingSpanExporter implements SpanExporter {

        final List<SpanData> spans = new CopyOnWriteArrayList<>();

        @Override
        public CompletableResultCode export(Collection<SpanData> batch) {
            spans.addAll(batch);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }

    /** What the consumer's handler saw: the order and the span current while it ran. */
    record Consumed(String orderId, String traceId, String spanId) {
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class ConsumerAndExporter {

        @Bean
        RecordingSpanExporter recordingSpanExporter() {
            return new RecordingSpanExporter();
        }

        @Bean
        List<Consumed> consumed() {
            return new CopyOnWriteArrayList<>();
        }

        @Bean
        InboxQueue tracingConsumerQueue() {
            return consumerQueue();
        }

        @Bean
        Declarables tracingConsumerDeclarables(InboxQueue queue) {
            return queue.declarables(EXCHANGE);
        }

        /** The consumer's inbox is the {@code inbox_message} table the service's own V1 migration made. */
        @Bean
        SimpleMessageListenerContainer tracingConsumer(ConnectionFactory connectionFactory, DataSource dataSource,
                                                       PlatformTransactionManager transactions, Tracer tracer,
                                                       InboxQueue queue, List<Consumed> consumed) {
            return new OrderPlacedInboxListener(CONSUMER, new JdbcInboxStore(dataSource),
                    new TransactionTemplate(transactions), order -> {
                Span span = tracer.currentSpan();
                LoggerFactory.getLogger(TracingIT.class).info("Consumed order {}", order.orderId());
                consumed.add(new Consumed(order.orderId().toString(),
                        span == null ? null : span.context().traceId(), span == null ? null : span.context().spanId()));
            }).container(connectionFactory, queue);
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    RecordingSpanExporter exporter;

    @Autowired
    List<Consumed> consumed;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void theRequestsTraceIdIsThePublishedMessagesAndTheConsumersTrace() {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String callerSpanId = "00f067aa0ba902b7";

        HttpJson.Response response = new HttpJson(port).postJson("/orders",
                HttpJson.orderJson(UUID.randomUUID().toString(), 1),
                "traceparent", "00-" + traceId + "-" + callerSpanId + "-01");

        assertThat(response.status()).isEqualTo(201);
        String orderId = response.json().get("id").asString();
        assertThat(response.header("traceparent")).matches("00-" + traceId + "-[0-9a-f]{16}-01")
                .doesNotContain(callerSpanId);

        // The row keeps the request's context.
        String storedHeaders = jdbc.queryForObject("SELECT headers::text FROM outbox_message WHERE aggregate_id = ?",
                String.class, orderId);
        String storedTraceparent = JsonMapper.builder().build().readTree(storedHeaders).get("traceparent").asString();
        assertThat(storedTraceparent).startsWith("00-" + traceId + "-");
        String requestSpanId = storedTraceparent.substring(36, 52);
        assertThat(response.header("traceparent")).as("the answer names the same span").isEqualTo(storedTraceparent);

        await().atMost(Duration.ofSeconds(30)).until(() -> consumed.stream().anyMatch(c -> c.orderId().equals(orderId)));
        Consumed consumer = consumed.stream().filter(c -> c.orderId().equals(orderId)).findFirst().orElseThrow();
        assertThat(consumer.traceId()).isEqualTo(traceId);

        // Spans leave through the exporter in batches: wait for the consumer's span, the last one to end.
        await().atMost(Duration.ofSeconds(30)).until(() -> spanWithId(consumer.spanId()) != null);
        String messageId = jdbc.queryForObject("SELECT id::text FROM outbox_message WHERE aggregate_id = ?",
                String.class, orderId);
        SpanData publish = exporter.spans.stream()
                .filter(span -> span.getName().equals("outbox publish"))
                .filter(span -> messageId.equals(attribute(span, "messaging.message.id")))
                .findFirst().orElseThrow();
        assertThat(publish.getTraceId()).isEqualTo(traceId);
        assertThat(publish.getKind()).isEqualTo(SpanKind.PRODUCER);
        assertThat(publish.getParentSpanId()).isEqualTo(requestSpanId);
        assertThat(attribute(publish, "outbox.outcome")).isEqualTo("CONFIRMED");

        SpanData request = spanWithId(requestSpanId);
        assertThat(request).isNotNull();
        assertThat(request.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(request.getParentSpanId()).isEqualTo(callerSpanId);

        // The consumer's span is the observation of the delivery, child of the publish span.
        SpanData consumerSpan = spanWithId(consumer.spanId());
        assertThat(consumerSpan.getTraceId()).isEqualTo(traceId);
        assertThat(consumerSpan.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(consumerSpan.getParentSpanId()).isEqualTo(publish.getSpanId());
    }

    @Test
    void aCallersUnsampledTraceStaysUnsampledInTheAnswerAndTheMessage() {
        String traceId = "0af7651916cd43dd8448eb211c80319c";

        HttpJson.Response response = new HttpJson(port).postJson("/orders",
                HttpJson.orderJson(UUID.randomUUID().toString(), 1),
                "traceparent", "00-" + traceId + "-b7ad6b7169203331-00");

        assertThat(response.status()).isEqualTo(201);
        assertThat(response.header("traceparent")).matches("00-" + traceId + "-[0-9a-f]{16}-00");
        String storedHeaders = jdbc.queryForObject("SELECT headers::text FROM outbox_message WHERE aggregate_id = ?",
                String.class, response.json().get("id").asString());
        assertThat(JsonMapper.builder().build().readTree(storedHeaders).get("traceparent").asString())
                .isEqualTo(response.header("traceparent"));
    }

    @Test
    void aRequestWithoutTraceparentStartsATraceThatTheMessageCarries(CapturedOutput output) {
        HttpJson.Response response = new HttpJson(port).postJson("/orders",
                HttpJson.orderJson(UUID.randomUUID().toString(), 1));

        assertThat(response.status()).isEqualTo(201);
        String orderId = response.json().get("id").asString();
        String responseTraceparent = response.header("traceparent");
        assertThat(responseTraceparent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
        String traceId = responseTraceparent.substring(3, 35);

        await().atMost(Duration.ofSeconds(30)).until(() -> consumed.stream().anyMatch(c -> c.orderId().equals(orderId)));
        Consumed consumer = consumed.stream().filter(c -> c.orderId().equals(orderId)).findFirst().orElseThrow();
        assertThat(consumer.traceId()).isEqualTo(traceId);
        // Log lines written while a span is current carry its ids (Boot's correlation pattern).
        assertThat(output.getOut()).containsPattern("\\[" + traceId + "-" + consumer.spanId() + "\\].*Consumed order "
                + orderId);
    }

    private SpanData spanWithId(String spanId) {
        return exporter.spans.stream().filter(span -> span.getSpanId().equals(spanId)).findFirst().orElse(null);
    }

    private static String attribute(SpanData span, String key) {
        Map<String, Object> attributes = new java.util.HashMap<>();
        span.getAttributes().forEach((k, v) -> attributes.put(k.getKey(), v));
        return String.valueOf(attributes.get(key));
    }
}
