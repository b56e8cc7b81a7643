package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.cdc.CdcRelay;
import dev.bookstore.ordering.bootstrap.cdc.CdcTestBed;
import dev.bookstore.ordering.bootstrap.observability.CdcLagMonitor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The service with {@code ordering.outbox.relay=cdc} on an embedded PostgreSQL with {@code wal_level=logical}: an
 * order placed over HTTP reaches the broker through the WAL, as the same AMQP message the polling relay sends for
 * the same outbox row. The row stays pending in cdc mode, so a polling instance started afterwards sends it too,
 * and the two messages are compared. The operator API sends messages again through the WAL: requeue, resend, replay.
 * An instance with no relay beside an outside reader acts for the cdc deployment.
 */
@ExtendWith(OutputCaptureExtension.class)
class CdcServiceIT {

    private CdcTestBed bed;
    private JdbcTemplate jdbc;

    @BeforeEach
    void databaseExchangeAndQueue() {
        bed = CdcTestBed.create();
        jdbc = bed.jdbc();
    }

    @AfterEach
    void cleanUp() {
        bed.close();
    }

    @Test
    void anOrderLeavesThroughTheWalAsTheSameMessageThePollingRelaySends() {
        Message viaCdc;
        String orderId;
        try (ServiceInstance cdc = start(Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.cdc.slot-name", bed.slot()))) {
            bed.awaitReading();
            HttpJson.Response placed = cdc.http.postJson("/orders",
                    HttpJson.orderJson(UUID.randomUUID().toString(), 2));
            assertThat(placed.status()).isEqualTo(201);
            orderId = placed.json().get("id").asString();
            viaCdc = await().atMost(Duration.ofSeconds(60)).until(bed::receive, message -> message != null);
        }
        assertThat(jdbc.queryForObject("SELECT status FROM outbox_message", String.class))
                .as("cdc mode never updates the row").isEqualTo("PENDING");

        Message viaPolling;
        try (ServiceInstance polling = start(Map.of("ordering.outbox.relay", "polling"))) {
            viaPolling = await().atMost(Duration.ofSeconds(60)).until(bed::receive, message -> message != null);
        }

        MessageProperties cdc = viaCdc.getMessageProperties();
        MessageProperties poll = viaPolling.getMessageProperties();
        assertThat(cdc.getMessageId()).isEqualTo(jdbc.queryForObject("SELECT id::text FROM outbox_message",
                String.class)).isEqualTo(poll.getMessageId());
        assertThat(cdc.getCorrelationId()).isEqualTo(orderId).isEqualTo(poll.getCorrelationId());
        assertThat(cdc.getType()).isEqualTo("bookstore.order-placed.v1").isEqualTo(poll.getType());
        assertThat(cdc.getContentType()).isEqualTo(poll.getContentType());
        assertThat(cdc.getContentEncoding()).isEqualTo(poll.getContentEncoding());
        assertThat(cdc.getReceivedDeliveryMode()).isEqualTo(poll.getReceivedDeliveryMode());
        assertThat(cdc.getTimestamp()).isEqualTo(poll.getTimestamp());
        assertThat(cdc.getAppId()).isEqualTo(poll.getAppId());
        assertThat(cdc.getReceivedRoutingKey()).isEqualTo("order.placed").isEqualTo(poll.getReceivedRoutingKey());
        assertThat(cdc.getHeaders().keySet()).isEqualTo(poll.getHeaders().keySet());
        assertThat(withoutSpan(cdc.getHeaders())).isEqualTo(withoutSpan(poll.getHeaders()));
        assertThat(viaCdc.getBody()).isEqualTo(viaPolling.getBody());
    }

    /**
     * The service's tables in schema {@code ordering}, named by the JDBC URL ({@code currentSchema=ordering}), as
     * Flyway and the rest of the service accept, migrated by the instance at its start: the relay captures that
     * schema's outbox table.
     */
    @Test
    void anOutboxInTheSchemaTheUrlNamesIsCapturedAndEveryOrderReachesTheBroker() {
        try (CdcTestBed ordering = CdcTestBed.createUnmigrated("ordering");
             ServiceInstance cdc = ServiceInstance.start(ordering, ordering.broker().port(), Map.of(
                     "ordering.outbox.relay", "cdc", "ordering.outbox.cdc.slot-name", ordering.slot()))) {
            ordering.awaitReading();
            int orders = 20;
            for (int i = 0; i < orders; i++) {
                assertThat(cdc.http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 1))
                        .status()).isEqualTo(201);
            }
            assertThat(ordering.jdbc().queryForObject("SELECT count(*) FROM ordering.outbox_message", Integer.class))
                    .isEqualTo(orders);

            List<String> received = new ArrayList<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                Message message;
                while ((message = ordering.receive()) != null) {
                    received.add(message.getMessageProperties().getMessageId());
                }
                return received.size() >= orders;
            });
            assertThat(received).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ordering.jdbc()
                    .queryForList("SELECT id::text FROM ordering.outbox_message", String.class));
        }
    }

    /** A publication that does not publish the table the service writes would let every message go unsent. */
    @Test
    void aPublicationOfAnotherTableStopsTheStartWithWhatToSet() {
        jdbc.execute("CREATE SCHEMA elsewhere");
        jdbc.execute("CREATE TABLE elsewhere.outbox_message (LIKE outbox_message INCLUDING ALL)");
        jdbc.execute("ALTER PUBLICATION ordering_outbox SET TABLE elsewhere.outbox_message");

        assertThatThrownBy(() -> start(Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.cdc.slot-name", bed.slot())).close())
                .hasStackTraceContaining("Publication ordering_outbox publishes [elsewhere.outbox_message], but the "
                        + "service writes public.outbox_message")
                .hasStackTraceContaining("ALTER PUBLICATION ordering_outbox SET TABLE \"public\".outbox_message");
    }

    @Test
    void theOperatorApiSendsParkedAndSentMessagesAgainThroughTheWalUnderTheirIds() {
        List<String> received = new ArrayList<>();
        try (ServiceInstance cdc = start(Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.cdc.slot-name", bed.slot(), "ordering.outbox.cdc.unroutable", "park"))) {
            bed.awaitReading();
            String parked = bed.insert("order-1", "held.placed");
            await().atMost(Duration.ofSeconds(60)).until(() -> "PARKED".equals(jdbc.queryForObject(
                    "SELECT status FROM outbox_message WHERE id = ?::uuid", String.class, parked)));
            bed.admin().declareBinding(BindingBuilder.bind(bed.queue()).to(new TopicExchange(bed.exchange()))
                    .with("held.#"));

            assertThat(cdc.http.post("/admin/outbox/parked/" + parked + "/requeue", null, "").status())
                    .isEqualTo(202);
            awaitReceived(received, List.of(parked));
            assertThat(jdbc.queryForMap("SELECT status, attempts, parked_at FROM outbox_message WHERE id = ?::uuid",
                    parked)).containsEntry("status", "PENDING").containsEntry("attempts", 0)
                    .containsEntry("parked_at", null);

            String sent = bed.insert("order-2", "order.placed");
            String other = bed.insert("order-3", "order.placed");
            awaitReceived(received, List.of(parked, sent, other));
            assertThat(cdc.http.post("/admin/outbox/messages/" + sent + "/resend", null, "").status())
                    .isEqualTo(202);
            awaitReceived(received, List.of(parked, sent, other, sent));
            HttpJson.Response replay = cdc.http.postJson("/admin/outbox/replay",
                    "{\"aggregateType\":\"order\",\"aggregateId\":\"order-3\"}");
            assertThat(replay.json().get("queued").asInt()).isEqualTo(1);
            awaitReceived(received, List.of(parked, sent, other, sent, other));

            String stillParked = bed.insert("order-4", "nobody.listens");
            await().atMost(Duration.ofSeconds(60)).until(() -> "PARKED".equals(jdbc.queryForObject(
                    "SELECT status FROM outbox_message WHERE id = ?::uuid", String.class, stillParked)));
            HttpJson.Response refused = cdc.http.post("/admin/outbox/messages/" + stillParked + "/resend", null, "");
            assertThat(refused.status()).as("parked: requeue it instead").isEqualTo(409);
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");

            // five rows stored, none marked published: the statistics count the parked one, and no backlog
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                HttpJson.Response stats = cdc.http.get("/outbox/stats");
                assertThat(stats.json().get("parked").asLong()).isEqualTo(1);
                assertThat(stats.json().get("pending").asLong()).isZero();
            });
        }
    }

    /**
     * Debezium outside the service (Debezium Server, Kafka Connect) reads the slot; the instances run
     * {@code relay=none} with {@code deployment-relay=cdc}: no engine of their own, and what the statistics, the
     * health component and the operator API do is the cdc mode's.
     */
    @Test
    void anInstanceBesideAnOutsideReaderActsForACdcDeployment() {
        jdbc.queryForList("SELECT pg_create_logical_replication_slot(?, 'pgoutput')", bed.slot());
        try (ServiceInstance none = start(Map.of("ordering.outbox.relay", "none",
                "ordering.outbox.deployment-relay", "cdc", "ordering.outbox.cdc.slot-name", bed.slot()))) {
            assertThatThrownBy(() -> none.bean(CdcRelay.class)).isInstanceOf(NoSuchBeanDefinitionException.class);
            assertThat(none.bean("outboxHealthIndicator", Object.class)).isInstanceOf(CdcLagMonitor.class);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                    none.bean(CdcLagMonitor.class).health().getDetails()).containsEntry("reading", false));

            String sent = bed.insert("order-1", "order.placed");
            long position = jdbc.queryForObject("SELECT position FROM outbox_message WHERE id = ?::uuid", Long.class,
                    sent);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                HttpJson.Response stats = none.http.get("/outbox/stats");
                assertThat(stats.status()).isEqualTo(200);
                assertThat(stats.json().get("pending").asLong()).as("no row is ever marked: none counts").isZero();
            });

            assertThat(none.http.post("/admin/outbox/messages/" + sent + "/resend", null, "").status())
                    .isEqualTo(202);
            assertThat(jdbc.queryForObject("SELECT position FROM outbox_message WHERE id = ?::uuid", Long.class,
                    sent)).as("inserted again, for the log reader").isGreaterThan(position);
        }
    }

    @Test
    void withTheDefaultsAMessageNoQueueTakesHoldsItsStreamForAboutASecondAndIsParked() {
        try (ServiceInstance cdc = start(Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.cdc.slot-name", bed.slot()))) {
            bed.awaitReading();
            String poison = bed.insert("order-1", "nobody.listens");
            long insertedAt = System.nanoTime();
            String next = bed.insert("order-1", "order.cancelled");

            Message first = await().atMost(Duration.ofSeconds(60)).until(bed::receive, message -> message != null);
            Duration held = Duration.ofNanos(System.nanoTime() - insertedAt);

            System.out.printf("CDC defaults: one unroutable message held the stream %d ms%n", held.toMillis());
            assertThat(first.getMessageProperties().getMessageId()).isEqualTo(next);
            assertThat(held).as("3 attempts, backoff 250 ms then 500 ms at most, and the reading")
                    .isLessThan(Duration.ofSeconds(3));
            assertThat(jdbc.queryForMap("SELECT status, attempts FROM outbox_message WHERE id = ?::uuid", poison))
                    .containsEntry("status", "PARKED").containsEntry("attempts", 3);
        }
    }

    /**
     * An instance with relay none that was not told the deployment's relay sends again by making rows pending, which
     * the CDC relay never reads: while the slot is read it says so at start and refuses those changes with 409.
     */
    @Test
    void anInstanceWithoutARelayThatDoesNotKnowTheDeploymentRefusesChangesNoRelayWouldSee(CapturedOutput output) {
        try (ServiceInstance cdc = start(Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.cdc.slot-name", bed.slot()))) {
            bed.awaitReading();
            String sent = bed.insert("order-2", "order.placed");
            await().atMost(Duration.ofSeconds(60)).until(bed::receive, message -> message != null);
            // As the relay leaves a message it parked.
            String parked = UUID.randomUUID().toString();
            jdbc.update("""
                    INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                                occurred_at, status, attempts, last_error, parked_at)
                    VALUES (?::uuid, 'order', 'order-1', 'bookstore.order-placed.v1', ?, 'order.placed',
                            '{"orderId":"order-1"}', now(), 'PARKED', 3, 'RETURNED', now())""", parked, bed.exchange());
            Map<String, Object> before = jdbc.queryForMap("SELECT status, position FROM outbox_message "
                    + "WHERE id = ?::uuid", parked);

            try (ServiceInstance none = start(Map.of("ordering.outbox.relay", "none",
                    "ordering.outbox.cdc.slot-name", bed.slot()))) {
                assertThat(output.getAll()).contains("Replication slot " + bed.slot() + " is being read");
                for (HttpJson.Response refused : List.of(
                        none.http.post("/admin/outbox/parked/" + parked + "/requeue", null, ""),
                        none.http.post("/admin/outbox/parked/requeue", null, ""),
                        none.http.post("/admin/outbox/messages/" + sent + "/resend", null, ""),
                        none.http.postJson("/admin/outbox/replay",
                                "{\"aggregateType\":\"order\",\"aggregateId\":\"order-2\"}"))) {
                    assertThat(refused.status()).isEqualTo(409);
                    assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
                    assertThat(refused.json().get("detail").asString()).contains("deployment-relay");
                }
                assertThat(jdbc.queryForMap("SELECT status, position FROM outbox_message WHERE id = ?::uuid",
                        parked)).as("nothing changed").isEqualTo(before);
                assertThat(none.http.get("/admin/outbox/parked").json().get("items")).hasSize(1);
            }
        }
    }

    private void awaitReceived(List<String> received, List<String> expected) {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Message message;
            while ((message = bed.receive()) != null) {
                received.add(message.getMessageProperties().getMessageId());
            }
            return received.size() >= expected.size();
        });
        assertThat(received).containsExactlyElementsOf(expected);
    }

    /** Each send is a producer span of its own: the trace is the row's, the span id differs per send. */
    private static Map<String, Object> withoutSpan(Map<String, Object> headers) {
        Map<String, Object> copy = new HashMap<>(headers);
        Object traceparent = copy.get("traceparent");
        if (traceparent != null) {
            copy.put("traceparent", traceparent.toString().split("-")[1]);
        }
        return copy;
    }

    private ServiceInstance start(Map<String, String> overrides) {
        return ServiceInstance.start(bed, bed.broker().port(), overrides);
    }
}
