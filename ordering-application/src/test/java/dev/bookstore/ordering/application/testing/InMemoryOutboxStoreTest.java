package dev.bookstore.ordering.application.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore.Row;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fake must follow the outbox ports' contract the JDBC store follows ({@link OutboxStoreContract}), or
 * the relay tests built on it prove nothing. Here too: what only the fake shows, its rows stamped by its clock to
 * the instant.
 */
class InMemoryOutboxStoreTest extends OutboxStoreContract<InMemoryOutboxStore> {

    private final MutableClock clock = MutableClock.at("2025-03-14T09:00:00Z");
    private final Instant start = clock.instant();
    private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock);

    @Override
    protected Outbox<InMemoryOutboxStore> outbox() {
        return new Outbox<>(store, store::append, store::unpark);
    }

    @Override
    protected void letTimePass(Duration duration) {
        clock.advance(duration);
    }

    @Test
    void aLeaseHoldsUpToAndIncludingItsLastInstant() {
        OutboxMessage message = append("order-a");
        store.claim("relay-1", 10, LEASE, false);

        assertThat(store.row(message.id()).claimedUntil()).isEqualTo(start.plus(LEASE));
        clock.advance(LEASE);
        assertThat(store.claim("relay-2", 10, LEASE, false)).isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(store.claim("relay-2", 10, LEASE, false)).hasSize(1);
        assertThat(store.row(message.id()).claimedBy()).isEqualTo("relay-2");
    }

    @Test
    void outcomesAreStampedByTheStoresClock() {
        OutboxMessage published = append("order-a");
        OutboxMessage failed = append("order-b");
        store.claim("relay-1", 10, LEASE, false);
        clock.advance(Duration.ofSeconds(2));

        store.markPublished("relay-1", List.of(published.id()));
        store.recordFailures("relay-1",
                List.of(DeliveryFailure.retryAfter(failed.id(), "RETURNED", Duration.ofSeconds(5))));

        Row publishedRow = store.row(published.id());
        assertThat(publishedRow.status()).isEqualTo(Status.PUBLISHED);
        assertThat(publishedRow.publishedAt()).isEqualTo(start.plusSeconds(2));
        assertThat(publishedRow.claimedBy()).isNull();
        Row failedRow = store.row(failed.id());
        assertThat(failedRow.attempts()).isEqualTo(1);
        assertThat(failedRow.lastError()).isEqualTo("RETURNED");
        assertThat(failedRow.nextAttemptAt()).isEqualTo(start.plusSeconds(7));
        assertThat(failedRow.claimedBy()).isNull();
    }

    @Test
    void thePendingAgeIsExactByTheStoresClock() {
        clock.advance(Duration.ofSeconds(2));
        append("order-a");
        clock.advance(Duration.ofSeconds(5));

        assertThat(store.count()).isEqualTo(new OutboxStats(1, 0, 0, Duration.ofSeconds(5)));
    }

    @Test
    void appendingTheSameMessageTwiceFailsLikeAPrimaryKey() {
        OutboxMessage message = append("order-a");

        assertThatIllegalStateException().isThrownBy(() -> store.append(message));
    }

    private OutboxMessage append(String aggregateId) {
        OutboxMessage message = OutboxMessages.orderPlaced(aggregateId, start);
        store.append(message);
        return message;
    }
}
