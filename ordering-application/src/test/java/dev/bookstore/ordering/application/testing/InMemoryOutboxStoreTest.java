package dev.bookstore.ordering.application.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.bookstore.ordering.application.outbox.DeliveryFailure;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.OutboxStats;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore.Row;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The fake must follow the {@code OutboxStore} lease rules, or the relay tests built on it prove nothing. */
class InMemoryOutboxStoreTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private final MutableClock clock = MutableClock.at("2025-03-14T09:00:00Z");
    private final Instant start = clock.instant();
    private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock);

    @Test
    void claimLeasesMessagesInTheOrderTheyWereAppendedUpToTheBatchSizeWhateverTheirOccurredAt() {
        // occurredAt comes from the writer's clock: the order of appending (the database's position) wins.
        OutboxMessage first = append("order-a", start.plusSeconds(3));
        OutboxMessage second = append("order-b", start.plusSeconds(1));
        OutboxMessage third = append("order-c", start.plusSeconds(2));

        List<OutboxMessage> claimed = store.claim("relay-1", 2, LEASE, false);

        assertThat(ids(claimed)).containsExactly(first.id(), second.id());
        assertThat(claimed).extracting(OutboxMessage::position).containsExactly(1L, 2L);
        assertThat(store.row(first.id()).claimedBy()).isEqualTo("relay-1");
        assertThat(store.row(first.id()).claimedUntil()).isEqualTo(start.plus(LEASE));
        assertThat(store.row(third.id()).claimedBy()).isNull();
    }

    @Test
    void aLeasedMessageIsClaimedByNobodyElseUntilTheLeaseExpires() {
        OutboxMessage message = append("order-a", start);
        store.claim("relay-1", 10, LEASE, false);

        assertThat(store.claim("relay-2", 10, LEASE, false)).isEmpty();
        clock.advance(LEASE);
        assertThat(store.claim("relay-2", 10, LEASE, false)).isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(ids(store.claim("relay-2", 10, LEASE, false))).containsExactly(message.id());
        assertThat(store.row(message.id()).claimedBy()).isEqualTo("relay-2");
    }

    @Test
    void outcomesAreAcceptedOnlyFromTheLeaseOwner() {
        OutboxMessage message = append("order-a", start);
        store.claim("relay-1", 10, LEASE, false);
        List<UUID> ids = List.of(message.id());

        assertThat(store.markPublished("relay-2", ids)).isZero();
        assertThat(store.recordFailures("relay-2", List.of(DeliveryFailure.park(message.id(), "NACKED")))).isZero();
        assertThat(store.release("relay-2", ids)).isZero();

        Row row = store.row(message.id());
        assertThat(row.status()).isEqualTo(Status.PENDING);
        assertThat(row.attempts()).isZero();
        assertThat(row.claimedBy()).isEqualTo("relay-1");
    }

    @Test
    void aRelayWhoseExpiredLeaseWasTakenOverCannotPublish() {
        OutboxMessage message = append("order-a", start);
        store.claim("relay-1", 10, LEASE, false);
        clock.advance(LEASE.plusMillis(1));
        store.claim("relay-2", 10, LEASE, false);

        assertThat(store.markPublished("relay-1", List.of(message.id()))).isZero();
        assertThat(store.markPublished("relay-2", List.of(message.id()))).isEqualTo(1);
    }

    @Test
    void aRelayWhoseExpiredLeaseWasNotTakenOverMayStillRecordItsOutcome() {
        OutboxMessage message = append("order-a", start);
        store.claim("relay-1", 10, LEASE, false);
        clock.advance(LEASE.multipliedBy(2));

        assertThat(store.markPublished("relay-1", List.of(message.id()))).isEqualTo(1);
    }

    @Test
    void publishedMessagesAreNeverClaimedOrPublishedAgain() {
        OutboxMessage message = append("order-a", start);
        store.claim("relay-1", 10, LEASE, false);
        clock.advance(Duration.ofSeconds(2));

        assertThat(store.markPublished("relay-1", List.of(message.id(), message.id()))).isEqualTo(1);

        Row row = store.row(message.id());
        assertThat(row.status()).isEqualTo(Status.PUBLISHED);
        assertThat(row.publishedAt()).isEqualTo(start.plusSeconds(2));
        assertThat(row.claimedBy()).isNull();
        assertThat(store.markPublished("relay-1", List.of(message.id()))).isZero();
        clock.advance(Duration.ofDays(1));
        assertThat(store.claim("relay-1", 10, LEASE, false)).isEmpty();
    }

    @Test
    void aFailureCountsAnAttemptFreesTheLeaseAndWaitsUntilTheNextAttempt() {
        OutboxMessage message = append("order-a", start);
        store.claim("relay-1", 10, LEASE, false);
        clock.advance(Duration.ofSeconds(2));
        Instant next = start.plusSeconds(7);

        assertThat(store.recordFailures("relay-1",
                List.of(DeliveryFailure.retryAfter(message.id(), "RETURNED", Duration.ofSeconds(5))))).isEqualTo(1);

        Row row = store.row(message.id());
        assertThat(row.attempts()).isEqualTo(1);
        assertThat(row.lastError()).isEqualTo("RETURNED");
        assertThat(row.nextAttemptAt()).isEqualTo(next);
        assertThat(row.claimedBy()).isNull();
        clock.set(next.minusMillis(1));
        assertThat(store.claim("relay-2", 10, LEASE, false)).isEmpty();
        clock.set(next);
        assertThat(store.claim("relay-2", 10, LEASE, false)).singleElement()
                .satisfies(claimed -> assertThat(claimed.attempts()).isEqualTo(1));
    }

    @Test
    void releasingFreesTheLeaseWithoutCountingAnAttempt() {
        OutboxMessage message = append("order-a", start);
        store.claim("relay-1", 10, LEASE, false);

        assertThat(store.release("relay-1", List.of(message.id()))).isEqualTo(1);

        assertThat(store.row(message.id()).attempts()).isZero();
        assertThat(ids(store.claim("relay-2", 10, LEASE, false))).containsExactly(message.id());
    }

    @Test
    void parkedMessagesAreNeverClaimedUntilUnparked() {
        OutboxMessage message = append("order-a", start);
        store.claim("relay-1", 10, LEASE, false);
        store.recordFailures("relay-1", List.of(DeliveryFailure.park(message.id(), "NACKED")));
        clock.advance(Duration.ofDays(30));

        assertThat(store.row(message.id()).status()).isEqualTo(Status.PARKED);
        assertThat(store.claim("relay-1", 10, LEASE, false)).isEmpty();
        assertThat(store.claim("relay-1", 10, LEASE, true)).isEmpty();

        assertThat(store.unpark(List.of(message.id()))).isEqualTo(1);
        assertThat(store.unpark(List.of(message.id()))).isZero();
        assertThat(store.claim("relay-1", 10, LEASE, false)).singleElement()
                .satisfies(claimed -> assertThat(claimed.attempts()).isZero());
    }

    @Test
    void orderedClaimsTakeOnlyTheOldestMessageOfEachAggregate() {
        OutboxMessage x1 = append("order-x", start);
        append("order-x", start.plusSeconds(1));
        OutboxMessage y1 = append("order-y", start.plusSeconds(2));

        assertThat(ids(store.claim("relay-1", 10, LEASE, true))).containsExactly(x1.id(), y1.id());
    }

    @Test
    void orderedClaimsSkipAnAggregateWhileOneOfItsMessagesIsLeased() {
        OutboxMessage x1 = append("order-x", start);
        OutboxMessage x2 = append("order-x", start.plusSeconds(1));
        store.claim("relay-1", 1, LEASE, true);

        assertThat(store.claim("relay-2", 10, LEASE, true)).isEmpty();

        store.markPublished("relay-1", List.of(x1.id()));
        assertThat(ids(store.claim("relay-2", 10, LEASE, true))).containsExactly(x2.id());
    }

    @Test
    void anUnorderedClaimTakesMessagesBehindALeasedOneOfTheSameAggregate() {
        append("order-x", start);
        OutboxMessage x2 = append("order-x", start.plusSeconds(1));
        store.claim("relay-1", 1, LEASE, false);

        assertThat(ids(store.claim("relay-2", 10, LEASE, false))).containsExactly(x2.id());
    }

    @Test
    void orderedClaimsWaitForTheOldestMessageOfAnAggregateThatIsNotDueYet() {
        OutboxMessage x1 = append("order-x", start);
        OutboxMessage x2 = append("order-x", start.plusSeconds(1));
        store.claim("relay-1", 10, LEASE, true);
        store.recordFailures("relay-1",
                List.of(DeliveryFailure.retryAfter(x1.id(), "RETURNED", Duration.ofSeconds(5))));

        assertThat(store.claim("relay-1", 10, LEASE, true)).isEmpty();

        clock.set(start.plusSeconds(5));
        assertThat(ids(store.claim("relay-1", 10, LEASE, true))).containsExactly(x1.id());
        assertThat(store.row(x2.id()).claimedBy()).isNull();
    }

    @Test
    void aParkedMessageHoldsBackItsAggregateUntilItIsUnparkedAndPublished() {
        OutboxMessage x1 = append("order-x", start);
        OutboxMessage x2 = append("order-x", start.plusSeconds(1));
        OutboxMessage y1 = append("order-y", start.plusSeconds(2));
        store.claim("relay-1", 1, LEASE, true);
        store.recordFailures("relay-1", List.of(DeliveryFailure.park(x1.id(), "NACKED")));

        assertThat(ids(store.claim("relay-1", 10, LEASE, true))).containsExactly(y1.id());

        store.unpark(List.of(x1.id()));
        assertThat(ids(store.claim("relay-1", 10, LEASE, true))).containsExactly(x1.id());
        store.markPublished("relay-1", List.of(x1.id()));
        assertThat(ids(store.claim("relay-1", 10, LEASE, true))).containsExactly(x2.id());
    }

    @Test
    void anUnorderedClaimGoesPastAParkedMessage() {
        OutboxMessage x1 = append("order-x", start);
        OutboxMessage x2 = append("order-x", start.plusSeconds(1));
        store.claim("relay-1", 1, LEASE, false);
        store.recordFailures("relay-1", List.of(DeliveryFailure.park(x1.id(), "NACKED")));

        assertThat(ids(store.claim("relay-1", 10, LEASE, false))).containsExactly(x2.id());
    }

    @Test
    void orderedModeFollowsTheAppendOrderOfAnAggregateEvenWhenOccurredAtSaysTheOpposite() {
        // Written by an instance whose clock runs 3 s ahead, then by one whose clock is right.
        OutboxMessage placed = append("order-x", start.plusSeconds(3));
        OutboxMessage cancelled = append("order-x", start);

        assertThat(ids(store.claim("relay-1", 10, LEASE, true))).containsExactly(placed.id());
        assertThat(store.claim("relay-2", 10, LEASE, true)).isEmpty();
        store.markPublished("relay-1", List.of(placed.id()));
        assertThat(ids(store.claim("relay-2", 10, LEASE, true))).containsExactly(cancelled.id());
    }

    @Test
    void anExpiredLeaseNoLongerHoldsBackItsAggregate() {
        OutboxMessage x1 = append("order-x", start);
        store.claim("relay-1", 10, LEASE, true);
        clock.advance(LEASE.plusMillis(1));

        assertThat(ids(store.claim("relay-2", 10, LEASE, true))).containsExactly(x1.id());
    }

    @Test
    void messagesOfTheSameIdInDifferentAggregateTypesAreDifferentAggregates() {
        OutboxMessage order = append("42", start);
        OutboxMessage other = new OutboxMessage(UUID.randomUUID(), "shipment", "42", "t", "x", "r", "{}",
                Map.of(), start.plusSeconds(1), 0);
        store.append(other);

        assertThat(ids(store.claim("relay-1", 10, LEASE, true))).containsExactly(order.id(), other.id());
    }

    @Test
    void retentionDeletesOnlyPublishedMessagesOlderThanTheCutoffUpToTheLimit() {
        OutboxMessage first = append("order-a", start);
        OutboxMessage second = append("order-b", start.plusSeconds(1));
        OutboxMessage third = append("order-c", start.plusSeconds(2));
        OutboxMessage pending = append("order-d", start.plusSeconds(3));
        store.claim("relay-1", 3, LEASE, false);
        store.markPublished("relay-1", List.of(first.id()));
        clock.advance(Duration.ofSeconds(1));
        store.markPublished("relay-1", List.of(second.id()));
        clock.advance(Duration.ofSeconds(1));
        store.markPublished("relay-1", List.of(third.id()));
        clock.advance(Duration.ofSeconds(10));
        // now start + 12 s: first and second were published more than 10 s ago, third exactly 10 s ago

        assertThat(store.deletePublishedOlderThan(Duration.ofSeconds(10), 1)).isEqualTo(1);
        assertThat(store.find(first.id())).isEmpty();
        assertThat(store.deletePublishedOlderThan(Duration.ofSeconds(10), 10)).isEqualTo(1);
        assertThat(store.find(second.id())).isEmpty();
        assertThat(store.rows()).extracting(Row::id).containsExactly(third.id(), pending.id());
    }

    @Test
    void thePublishedCountKeepsMessagesThatRetentionDeleted() {
        OutboxMessage first = append("order-a", start);
        OutboxMessage second = append("order-b", start);
        store.claim("relay-1", 2, LEASE, false);
        store.markPublished("relay-1", List.of(first.id(), second.id()));
        store.markPublished("relay-1", List.of(first.id()));
        clock.advance(Duration.ofSeconds(2));

        assertThat(store.deletePublishedOlderThan(Duration.ofSeconds(1), 10)).isEqualTo(2);

        assertThat(store.rows()).isEmpty();
        assertThat(store.stats().published()).isEqualTo(2);
    }

    @Test
    void statsCountEveryStatusAndTheAgeOfTheOldestPendingMessage() {
        OutboxMessage parked = append("order-a", start);
        OutboxMessage published = append("order-b", start.plusSeconds(1));
        clock.set(start.plusSeconds(2));
        // Appended at start + 2 s by this store's clock (the database's); when it occurred does not count.
        append("order-c", start.minus(Duration.ofDays(1)));
        store.claim("relay-1", 2, LEASE, false);
        store.recordFailures("relay-1", List.of(DeliveryFailure.park(parked.id(), "NACKED")));
        store.markPublished("relay-1", List.of(published.id()));
        clock.set(start.plusSeconds(7));

        assertThat(store.stats()).isEqualTo(new OutboxStats(1, 1, 1, Duration.ofSeconds(5)));
    }

    @Test
    void appendingTheSameMessageTwiceFailsLikeAPrimaryKey() {
        OutboxMessage message = append("order-a", start);

        assertThatIllegalStateException().isThrownBy(() -> store.append(message));
    }

    private OutboxMessage append(String aggregateId, Instant occurredAt) {
        OutboxMessage message = OutboxMessages.orderPlaced(aggregateId, occurredAt);
        store.append(message);
        return message;
    }

    private static List<UUID> ids(List<OutboxMessage> messages) {
        return messages.stream().map(OutboxMessage::id).toList();
    }
}
