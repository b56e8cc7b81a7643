package dev.bookstore.ordering.adapters.persistence.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.admin.OutboxEntry;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link JdbcOutboxAdministration} contract, run against every engine by one subclass per engine: the operator's
 * parked list, unpark, delete, resend and replay, on rows the relay's own statements parked and published. A subclass
 * provides a migrated database; every test starts from an empty outbox.
 */
abstract class JdbcOutboxAdministrationContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration LEASE = Duration.ofMinutes(5);

    private JdbcTemplate jdbc;
    private JdbcOutboxStore store;
    private JdbcOutboxAdministration admin;
    private final Instant start = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);

    /** A data source on a database migrated by this engine's Flyway scripts. */
    protected abstract DataSource dataSource();

    /** What {@link JdbcOutboxStore#database()} must report here; it binds the ids and times of the test's own SQL. */
    protected abstract Database expectedDatabase();

    @BeforeEach
    void emptyOutbox() {
        jdbc = new JdbcTemplate(dataSource());
        jdbc.update("DELETE FROM outbox_message");
        store = new JdbcOutboxStore(dataSource(), JSON);
        admin = new JdbcOutboxAdministration(dataSource(), JSON, store);
    }

    @Test
    void theStoreUnderTheAdministrationIsOnTheEngineTheSubclassNames() {
        assertThat(store.database()).isEqualTo(expectedDatabase());
    }

    @Test
    void theRelayStampsParkedAtAndTheParkedListPagesByPosition() {
        List<UUID> parked = List.of(park("order-a"), park("order-b"), park("order-c"));
        UUID published = publish("order-d");

        List<OutboxEntry> first = admin.parked(0, 2);
        List<OutboxEntry> second = admin.parked(first.get(1).message().position(), 2);

        assertThat(first).extracting(OutboxEntry::id).containsExactly(parked.get(0), parked.get(1));
        assertThat(second).extracting(OutboxEntry::id).containsExactly(parked.get(2));
        assertThat(first.get(0).status()).isEqualTo(OutboxEntry.Status.PARKED);
        assertThat(first.get(0).lastError()).isEqualTo("NACKED");
        assertThat(first.get(0).message().attempts()).isEqualTo(1);
        assertThat(first.get(0).parkedAt()).isCloseTo(Instant.now(), within());
        assertThat(admin.find(published).orElseThrow().parkedAt()).isNull();
    }

    @Test
    void unparkMakesTheRowPendingDueAndFreshAndForgetsWhenItWasParked() {
        UUID parked = park("order-a");
        jdbc.update("UPDATE outbox_message SET created_at = ? WHERE id = ?",
                expectedDatabase().timestamp(Instant.now().minus(Duration.ofDays(1))), expectedDatabase().id(parked));
        assertThat(admin.find(parked).orElseThrow().createdAt()).as("stored a day ago")
                .isBefore(Instant.now().minus(Duration.ofHours(23)));

        assertThat(admin.unpark(List.of(parked))).isEqualTo(1);

        OutboxEntry entry = admin.find(parked).orElseThrow();
        assertThat(entry.status()).isEqualTo(OutboxEntry.Status.PENDING);
        assertThat(entry.parkedAt()).isNull();
        assertThat(entry.message().attempts()).isZero();
        assertThat(entry.createdAt()).as("the pending age runs from the requeue").isCloseTo(Instant.now(), within());
        assertThat(store.claim("relay", 10, LEASE, false)).extracting(OutboxMessage::id).containsExactly(parked);
    }

    @Test
    void deleteParkedDeletesOnlyAParkedRow() {
        UUID parked = park("order-a");
        UUID published = publish("order-b");

        assertThat(admin.deleteParked(published)).isFalse();
        assertThat(admin.deleteParked(parked)).isTrue();
        assertThat(admin.find(parked)).isEmpty();
        assertThat(admin.find(published)).isPresent();
    }

    @Test
    void resendMakesOnlyAPublishedRowPendingAgainUnderTheSameId() {
        UUID published = publish("order-a");
        UUID parked = park("order-b");

        assertThat(admin.resend(parked)).isFalse();
        assertThat(admin.resend(published)).isTrue();
        assertThat(admin.resend(published)).as("pending now, not published").isFalse();

        OutboxEntry entry = admin.find(published).orElseThrow();
        assertThat(entry.status()).isEqualTo(OutboxEntry.Status.PENDING);
        assertThat(entry.publishedAt()).isNull();
        assertThat(store.claim("relay", 10, LEASE, false)).extracting(OutboxMessage::id).containsExactly(published);
    }

    @Test
    void aReplayResendsExactlyThePublishedRowsOfTheSelection() {
        UUID a1 = publish(message("order-a", start));
        UUID a2 = publish(message("order-a", start.plusSeconds(60)));
        UUID b1 = publish(message("order-b", start.plusSeconds(30)));
        UUID late = publish(message("order-c", start.plusSeconds(600)));
        UUID parkedA = park("order-a");

        ReplaySelection byAggregate = new ReplaySelection("order", "order-a", null, null);
        ReplaySelection byTime = new ReplaySelection(null, null, start, start.plusSeconds(61));
        assertThat(admin.countPublished(byAggregate, 10)).isEqualTo(2);
        assertThat(admin.countPublished(byTime, 10)).isEqualTo(3);
        assertThat(admin.countPublished(byTime, 1)).as("counts at most limit + 1").isEqualTo(2);
        assertThat(admin.countPublished(new ReplaySelection("shipment", "order-a", null, null), 10)).isZero();

        assertThat(admin.resendPublished(byAggregate, 10)).isEqualTo(2);

        assertThat(store.claim("relay", 10, LEASE, false)).extracting(OutboxMessage::id).containsExactly(a1, a2);
        assertThat(admin.find(b1).orElseThrow().status()).isEqualTo(OutboxEntry.Status.PUBLISHED);
        assertThat(admin.find(late).orElseThrow().status()).isEqualTo(OutboxEntry.Status.PUBLISHED);
        assertThat(admin.find(parkedA).orElseThrow().status()).isEqualTo(OutboxEntry.Status.PARKED);
    }

    @Test
    void aReplayNeverChangesMoreRowsThanItsLimit() {
        publish(message("order-a", start));
        publish(message("order-a", start.plusSeconds(1)));
        publish(message("order-a", start.plusSeconds(2)));

        assertThat(admin.resendPublished(new ReplaySelection(null, "order-a", null, null), 2)).isEqualTo(2);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message WHERE status = 'PENDING'",
                Integer.class)).isEqualTo(2);
    }

    protected JdbcOutboxAdministration admin() {
        return admin;
    }

    /** A row as the CDC relay leaves it once sent: pending, never claimed. */
    protected UUID store(String aggregateId) {
        OutboxMessage message = message(aggregateId, start);
        store.append(message);
        return message.id();
    }

    protected UUID park(String aggregateId) {
        OutboxMessage message = message(aggregateId, start);
        store.append(message);
        store.claim("parker", 100, LEASE, false);
        store.recordFailures("parker", List.of(DeliveryFailure.park(message.id(), "NACKED")));
        releaseAll("parker");
        return message.id();
    }

    private UUID publish(String aggregateId) {
        return publish(message(aggregateId, start));
    }

    private UUID publish(OutboxMessage message) {
        store.append(message);
        store.claim("publisher", 100, LEASE, false);
        store.markPublished("publisher", List.of(message.id()));
        releaseAll("publisher");
        return message.id();
    }

    /** Frees what a helper claimed beside its own message, so the test's own claims find it. */
    private void releaseAll(String owner) {
        store.release(owner, jdbc.query("SELECT id FROM outbox_message WHERE claimed_by = ?",
                (rs, n) -> UUID.fromString(rs.getString(1)), owner));
    }

    private static OutboxMessage message(String aggregateId, Instant occurredAt) {
        return new OutboxMessage(UUID.randomUUID(), "order", aggregateId, "bookstore.order-placed.v1",
                "bookstore.ordering", "order.placed", "{\"orderId\":\"" + aggregateId + "\"}", Map.of(),
                occurredAt, 0);
    }

    private static org.assertj.core.data.TemporalUnitOffset within() {
        return new org.assertj.core.data.TemporalUnitWithinOffset(1, ChronoUnit.MINUTES);
    }
}
