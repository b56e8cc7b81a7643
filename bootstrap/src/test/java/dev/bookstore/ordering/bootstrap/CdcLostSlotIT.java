package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.cdc.CdcRelay;
import dev.bookstore.ordering.application.outbox.capture.CaptureSettings;
import dev.bookstore.ordering.application.outbox.relay.Backoff;
import dev.bookstore.ordering.application.outbox.relay.RelaySettings.Unroutable;
import dev.bookstore.ordering.bootstrap.cdc.CdcTestBed;
import dev.bookstore.ordering.bootstrap.observability.CdcLagMonitor;
import dev.bookstore.ordering.bootstrap.retention.RetentionJob;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The CDC relay's replication slot lost (dropped, as a failover without failover slots or
 * {@code max_slot_wal_keep_size} would lose it) with rows written after its last confirmed position: the
 * {@code outbox} health component DOWN while readiness stays UP, the retention keeping every row the slot has not
 * confirmed, and the recovery of docs/cdc.md delivering every message, with duplicates only among the rows the lost
 * slot had delivered since its last confirmed mark.
 */
class CdcLostSlotIT {

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<String> received = Collections.synchronizedList(new ArrayList<>());
    /** A database, slot, exchange and queue of each test's own (JUnit makes an instance per test). */
    private final CdcTestBed bed = CdcTestBed.create();
    private final JdbcTemplate jdbc = bed.jdbc();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
        bed.close();
    }

    @Test
    void aLostSlotTurnsTheOutboxComponentDownWhileReadinessStaysUp() {
        ServiceInstance reader = start(Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.cdc.recover-lost-slot", "false",
                "ordering.outbox.cdc.restart-backoff-initial", "3s"));
        bed.awaitReading();
        String sent = bed.insert("order-1", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> receivedCount(sent) == 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM outbox_cdc_offset WHERE slot_name = ?", Integer.class, bed.slot()) > 0);

        dropSlot();

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                reader.bean(CdcLagMonitor.class).health().getStatus()).isEqualTo(Status.DOWN));
        assertThat(reader.bean(CdcLagMonitor.class).health().getDetails()).containsEntry("slotLost", true);
        HttpJson anonymous = reader.http.anonymous();
        assertThat(anonymous.get("/actuator/health").status()).as("the outbox alerts").isEqualTo(503);
        HttpJson.Response readiness = anonymous.get("/actuator/health/readiness");
        assertThat(readiness.status()).as("the load balancer keeps the instance").isEqualTo(200);
        assertThat(readiness.json().get("status").asString()).isEqualTo("UP");
        assertThat(reader.http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 1)).status())
                .as("orders are still taken").isEqualTo(201);
        assertThat(slotExists()).as("with recovery off the reader waits: nobody made the slot again").isFalse();
    }

    @Test
    void theRetentionKeepsRowsTheSlotHasNotConfirmedWhileItIsNotReadOrMissing() {
        ServiceInstance observer = start(Map.of("ordering.outbox.relay", "none",
                "ordering.outbox.deployment-relay", "cdc", "ordering.outbox.retention", "1h",
                "ordering.outbox.retention-interval", "1h", "ordering.outbox.cdc.mark-interval", "10m"));
        RetentionJob retention = observer.bean("capturedOutboxRetentionJob", RetentionJob.class);
        CdcRelay relay = bed.relay("reader", Duration.ofMillis(500), bed.broker().connectionFactory(),
                new CaptureSettings(Duration.ofSeconds(5), 10, new Backoff(Duration.ofMillis(100),
                        Duration.ofMillis(400), () -> 1.0), Duration.ofMillis(200), Unroutable.RETRY),
                UnaryOperator.identity());
        relay.start();
        closeables.add(relay);
        bed.awaitReading();
        String delivered = bed.insert("order-1", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> receivedCount(delivered) == 1);
        ageRows();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            retention.purge();
            return rows() == 0;
        });

        relay.close();
        await().atMost(Duration.ofSeconds(30)).until(() -> !slotActive());
        String unread = bed.insert("order-2", "order.placed");
        String another = bed.insert("order-2", "order.cancelled");
        ageRows();
        assertThat(retention.purge()).as("slot not read: nothing deleted").isZero();

        dropSlot();
        assertThat(retention.purge()).as("slot missing: nothing deleted").isZero();
        assertThat(jdbc.queryForList("SELECT id::text FROM outbox_message ORDER BY position", String.class))
                .containsExactly(unread, another);
    }

    @Test
    void aLostSlotIsRecoveredByStartingAReaderAndEveryMessageIsDelivered() {
        Map<String, String> cdc = Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.cdc.mark-interval", "200ms", "ordering.outbox.cdc.lag-refresh-interval", "200ms");
        ServiceInstance first = start(cdc);
        bed.awaitReading();
        List<String> before = insert(20, "before");
        await().atMost(Duration.ofSeconds(30)).until(() -> distinctReceived().containsAll(before));
        String walEnd = jdbc.queryForObject("SELECT pg_current_wal_insert_lsn()::text", String.class);
        await().atMost(Duration.ofSeconds(30)).until(() -> Boolean.TRUE.equals(jdbc.queryForObject(
                "SELECT confirmed_flush_lsn >= ?::pg_lsn FROM pg_replication_slots WHERE slot_name = ?",
                Boolean.class, walEnd, bed.slot())));
        // and a mark taken after the first of them has been seen confirmed (every mark-interval): the recovery
        // sends again from the newest confirmed mark, so without it everything would be sent again
        await().atMost(Duration.ofSeconds(30)).until(() -> Boolean.TRUE.equals(jdbc.queryForObject("""
                SELECT EXISTS (SELECT 1 FROM outbox_cdc_mark WHERE slot_name = ? AND confirmed_at IS NOT NULL
                                  AND horizon > (SELECT created_at FROM outbox_message WHERE id = ?::uuid))""",
                Boolean.class, bed.slot(), before.get(0))));

        // The reader stops; rows are written that the slot never confirms; the slot is lost; more rows come.
        first.close();
        closeables.remove(first);
        List<String> gap = insert(10, "gap");
        dropSlot();
        List<String> afterLoss = insert(5, "after-loss");

        // The documented recovery: an instance with relay=cdc (and recover-lost-slot on, the default) starts.
        start(cdc);
        List<String> expected = new ArrayList<>(before);
        expected.addAll(gap);
        expected.addAll(afterLoss);
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(distinctReceived())
                .as("every message delivered").containsAll(expected));
        String next = bed.insert("order-next", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> receivedCount(next) == 1);

        Map<String, Object> recovery = jdbc.queryForMap(
                "SELECT resend_from, resent, finished_at FROM outbox_cdc_recovery WHERE slot_name = ?", bed.slot());
        Timestamp resendFrom = (Timestamp) recovery.get("resend_from");
        Set<String> resentBefore = new HashSet<>(jdbc.queryForList(
                "SELECT id::text FROM outbox_message WHERE created_at >= ?", String.class, resendFrom));
        resentBefore.retainAll(before);
        List<String> duplicates = duplicates();
        System.out.printf("Lost-slot recovery: %d message(s) sent again from %s, %d duplicate(s) delivered, %d "
                + "rows of the %d delivered before the loss stored after the newest confirmed mark%n",
                recovery.get("resent"), resendFrom, duplicates.size(), resentBefore.size(), before.size());
        assertThat(recovery.get("finished_at")).as("the recovery finished").isNotNull();
        assertThat(duplicates).as("duplicates: rows delivered before the loss and stored after the confirmed mark")
                .allMatch(resentBefore::contains).doesNotHaveDuplicates();
        assertThat(resentBefore.size()).as("a mark was confirmed: not everything is sent again")
                .isLessThan(before.size());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_cdc_offset WHERE slot_name = ?",
                Integer.class, bed.slot())).as("the new slot's offsets").isPositive();
    }

    private List<String> insert(int count, String prefix) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(bed.insert(prefix + "-" + (i % 3), i % 2 == 0 ? "order.placed" : "order.cancelled"));
        }
        return ids;
    }

    /** Ends the slot's reader session if any and drops the slot, as a failover without it or an operator would. */
    private void dropSlot() {
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            jdbc.queryForList("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots "
                    + "WHERE slot_name = ? AND active_pid IS NOT NULL", bed.slot());
            jdbc.queryForList("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                    + "WHERE slot_name = ?", bed.slot());
            return !slotExists();
        });
    }

    private boolean slotExists() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ?", Integer.class,
                bed.slot()) > 0;
    }

    private boolean slotActive() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active",
                Integer.class, bed.slot()) > 0;
    }

    /** Every row stored two hours ago: older than the test's retention of one hour. */
    private void ageRows() {
        jdbc.update("UPDATE outbox_message SET created_at = created_at - interval '2 hours'");
    }

    private int rows() {
        return jdbc.queryForObject("SELECT count(*) FROM outbox_message", Integer.class);
    }

    private long receivedCount(String id) {
        drain();
        return received.stream().filter(id::equals).count();
    }

    private Set<String> distinctReceived() {
        drain();
        return new HashSet<>(received);
    }

    private List<String> duplicates() {
        drain();
        Set<String> seen = new HashSet<>();
        List<String> again = new ArrayList<>();
        for (String id : List.copyOf(received)) {
            if (!seen.add(id)) {
                again.add(id);
            }
        }
        return again;
    }

    private void drain() {
        Message message;
        while ((message = bed.receive()) != null) {
            received.add(message.getMessageProperties().getMessageId());
        }
    }

    private ServiceInstance start(Map<String, String> overrides) {
        Map<String, String> properties = new LinkedHashMap<>(overrides);
        properties.put("ordering.outbox.cdc.slot-name", bed.slot());
        ServiceInstance instance = ServiceInstance.start(bed, bed.broker().port(), properties);
        closeables.add(instance);
        return instance;
    }
}
