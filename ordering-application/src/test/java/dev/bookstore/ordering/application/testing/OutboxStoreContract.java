package dev.bookstore.ordering.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.OutboxRetention;
import dev.bookstore.ordering.application.outbox.admin.OutboxStatistics;
import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import dev.bookstore.ordering.application.outbox.relay.OutboxLeases;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * The contract of the outbox ports, through the ports only: the relay's {@link OutboxLeases} (leases, outcomes,
 * parking, ordered mode), {@link OutboxRetention} and {@link OutboxStatistics}. Run by the in-memory fake ({@code InMemoryOutboxStoreTest}) and by the JDBC store on
 * every database ({@code JdbcOutboxStoreContract}), so the relay tests built on the fake test what production
 * does. A subclass provides an empty store and a way to let the store's clock (the database's) move on.
 */
public abstract class OutboxStoreContract<S extends OutboxLeases & OutboxRetention & OutboxStatistics> {

    protected static final Duration LEASE = Duration.ofSeconds(30);
    /** Occurrence times (the writers' clocks): information only, never what orders or times a message. */
    private static final Instant OCCURRED = Instant.parse("2025-03-14T09:00:00Z");

    /**
     * The store under test, empty at the start of every test, with what no port of it offers: the insert of the
     * order's transaction and the operator's {@code OutboxAdministration.unpark}.
     */
    public record Outbox<S>(S store, Consumer<OutboxMessage> insert, ToIntFunction<Collection<UUID>> unpark) {
    }

    protected abstract Outbox<S> outbox();

    private S store() {
        return outbox().store();
    }

    private void insert(OutboxMessage message) {
        outbox().insert().accept(message);
    }

    private int unpark(Collection<UUID> ids) {
        return outbox().unpark().applyAsInt(ids);
    }

    /**
     * Moves the store's clock on by {@code duration}: every lease, delay and age it measures is that much further
     * along afterwards.
     */
    protected abstract void letTimePass(Duration duration);

    // --- claiming --------------------------------------------------------------------------------------------------

    @Test
    void claimLeasesMessagesInTheOrderTheyWereAppendedUpToTheBatchSizeWhateverTheirOccurredAt() {
        // occurredAt comes from the writer's clock: the order of appending (the database's position) wins.
        OutboxMessage first = append("order-a", OCCURRED.plusSeconds(3));
        OutboxMessage second = append("order-b", OCCURRED.plusSeconds(1));
        OutboxMessage third = append("order-c", OCCURRED.plusSeconds(2));

        List<OutboxMessage> claimed = store().claim("relay-1", 2, LEASE, false);

        assertThat(ids(claimed)).containsExactly(first.id(), second.id());
        assertThat(claimed).extracting(OutboxMessage::position).doesNotHaveDuplicates().isSorted()
                .allSatisfy(position -> assertThat(position).isPositive());
        assertThat(ids(store().claim("relay-2", 10, LEASE, false))).as("what is left").containsExactly(third.id());
    }

    @Test
    void aLeasedMessageIsClaimedByNobodyElseUntilTheLeaseExpires() {
        OutboxMessage message = append("order-a", OCCURRED);
        store().claim("relay-1", 10, LEASE, false);

        assertThat(store().claim("relay-2", 10, LEASE, false)).isEmpty();
        letTimePass(LEASE.minusSeconds(1));
        assertThat(store().claim("relay-2", 10, LEASE, false)).isEmpty();
        letTimePass(Duration.ofSeconds(2));
        assertThat(ids(store().claim("relay-2", 10, LEASE, false))).containsExactly(message.id());
        assertThat(store().markPublished("relay-1", List.of(message.id()))).as("relay-2 holds it now").isZero();
    }

    // --- outcomes --------------------------------------------------------------------------------------------------

    @Test
    void outcomesAreAcceptedOnlyFromTheLeaseOwner() {
        OutboxMessage message = append("order-a", OCCURRED);
        store().claim("relay-1", 10, LEASE, false);
        List<UUID> ids = List.of(message.id());

        assertThat(store().markPublished("relay-2", ids)).isZero();
        assertThat(store().recordFailures("relay-2", List.of(DeliveryFailure.park(message.id(), "NACKED")))).isZero();
        assertThat(store().release("relay-2", ids)).isZero();

        assertThat(store().count()).extracting(OutboxStats::pending, OutboxStats::parked, OutboxStats::published)
                .containsExactly(1L, 0L, 0L);
        assertThat(store().claim("relay-2", 10, LEASE, false)).as("still leased by relay-1").isEmpty();
        assertThat(store().markPublished("relay-1", ids)).isEqualTo(1);
    }

    @Test
    void aRelayWhoseExpiredLeaseWasTakenOverCannotPublish() {
        OutboxMessage message = append("order-a", OCCURRED);
        store().claim("relay-1", 10, LEASE, false);
        letTimePass(LEASE.plusSeconds(1));
        store().claim("relay-2", 10, LEASE, false);

        assertThat(store().markPublished("relay-1", List.of(message.id()))).isZero();
        assertThat(store().markPublished("relay-2", List.of(message.id()))).isEqualTo(1);
    }

    @Test
    void aRelayWhoseExpiredLeaseWasNotTakenOverMayStillRecordItsOutcome() {
        OutboxMessage message = append("order-a", OCCURRED);
        store().claim("relay-1", 10, LEASE, false);
        letTimePass(LEASE.multipliedBy(2));

        assertThat(store().markPublished("relay-1", List.of(message.id()))).isEqualTo(1);
    }

    @Test
    void publishedMessagesAreNeverClaimedOrPublishedAgain() {
        OutboxMessage message = append("order-a", OCCURRED);
        store().claim("relay-1", 10, LEASE, false);

        assertThat(store().markPublished("relay-1", List.of(message.id(), message.id()))).isEqualTo(1);

        assertThat(store().markPublished("relay-1", List.of(message.id()))).as("the lease ended with it").isZero();
        letTimePass(Duration.ofDays(1));
        assertThat(store().claim("relay-1", 10, LEASE, false)).isEmpty();
        assertThat(store().count()).extracting(OutboxStats::pending, OutboxStats::published).containsExactly(0L, 1L);
    }

    @Test
    void aFailureCountsAnAttemptFreesTheLeaseAndWaitsUntilTheNextAttempt() {
        OutboxMessage message = append("order-a", OCCURRED);
        store().claim("relay-1", 10, LEASE, false);

        assertThat(store().recordFailures("relay-1",
                List.of(DeliveryFailure.retryAfter(message.id(), "RETURNED", Duration.ofSeconds(5))))).isEqualTo(1);

        assertThat(store().claim("relay-2", 10, LEASE, false)).as("not due yet").isEmpty();
        letTimePass(Duration.ofSeconds(4));
        assertThat(store().claim("relay-2", 10, LEASE, false)).as("still not due").isEmpty();
        letTimePass(Duration.ofSeconds(2));
        assertThat(store().claim("relay-2", 10, LEASE, false)).as("due, and the lease was freed").singleElement()
                .satisfies(claimed -> assertThat(claimed.attempts()).isEqualTo(1));
    }

    @Test
    void releasingFreesTheLeaseWithoutCountingAnAttempt() {
        OutboxMessage message = append("order-a", OCCURRED);
        store().claim("relay-1", 10, LEASE, false);

        assertThat(store().release("relay-1", List.of(message.id()))).isEqualTo(1);

        assertThat(store().claim("relay-2", 10, LEASE, false)).singleElement()
                .satisfies(claimed -> assertThat(claimed.attempts()).isZero());
    }

    @Test
    void parkedMessagesAreNeverClaimedUntilUnparkedWithAFreshAttemptCount() {
        OutboxMessage message = append("order-a", OCCURRED);
        OutboxMessage pending = append("order-b", OCCURRED);
        store().claim("relay-1", 1, LEASE, false);
        store().recordFailures("relay-1", List.of(DeliveryFailure.park(message.id(), "NACKED")));
        store().claim("relay-1", 1, LEASE, false);
        letTimePass(Duration.ofDays(30));

        assertThat(store().count()).extracting(OutboxStats::pending, OutboxStats::parked).containsExactly(1L, 1L);
        assertThat(ids(store().claim("relay-2", 10, LEASE, false))).as("only the expired lease")
                .containsExactly(pending.id());
        assertThat(store().claim("relay-3", 10, LEASE, true)).isEmpty();

        assertThat(unpark(List.of(message.id(), pending.id()))).as("only parked messages").isEqualTo(1);
        assertThat(unpark(List.of(message.id()))).isZero();
        assertThat(store().claim("relay-3", 10, LEASE, false)).singleElement()
                .satisfies(claimed -> assertThat(claimed.attempts()).isZero());
        assertThat(store().count().parked()).isZero();
    }

    // --- ordered mode ----------------------------------------------------------------------------------------------

    @Test
    void orderedClaimsTakeOnlyTheOldestMessageOfEachAggregate() {
        OutboxMessage x1 = append("order-x", OCCURRED);
        append("order-x", OCCURRED.plusSeconds(1));
        OutboxMessage y1 = append("order-y", OCCURRED.plusSeconds(2));

        assertThat(ids(store().claim("relay-1", 10, LEASE, true))).containsExactly(x1.id(), y1.id());
    }

    @Test
    void orderedClaimsSkipAnAggregateWhileOneOfItsMessagesIsLeased() {
        OutboxMessage x1 = append("order-x", OCCURRED);
        OutboxMessage x2 = append("order-x", OCCURRED.plusSeconds(1));
        store().claim("relay-1", 1, LEASE, true);

        assertThat(store().claim("relay-2", 10, LEASE, true)).isEmpty();

        store().markPublished("relay-1", List.of(x1.id()));
        assertThat(ids(store().claim("relay-2", 10, LEASE, true))).containsExactly(x2.id());
    }

    @Test
    void anUnorderedClaimTakesMessagesBehindALeasedOneOfTheSameAggregate() {
        append("order-x", OCCURRED);
        OutboxMessage x2 = append("order-x", OCCURRED.plusSeconds(1));
        store().claim("relay-1", 1, LEASE, false);

        assertThat(ids(store().claim("relay-2", 10, LEASE, false))).containsExactly(x2.id());
    }

    @Test
    void orderedClaimsWaitForTheOldestMessageOfAnAggregateThatIsNotDueYet() {
        OutboxMessage x1 = append("order-x", OCCURRED);
        OutboxMessage x2 = append("order-x", OCCURRED.plusSeconds(1));
        store().claim("relay-1", 10, LEASE, true);
        store().recordFailures("relay-1",
                List.of(DeliveryFailure.retryAfter(x1.id(), "RETURNED", Duration.ofSeconds(5))));

        assertThat(store().claim("relay-1", 10, LEASE, true)).isEmpty();

        letTimePass(Duration.ofSeconds(6));
        assertThat(ids(store().claim("relay-1", 10, LEASE, true))).containsExactly(x1.id());
        assertThat(ids(store().claim("relay-2", 10, LEASE, false))).as("x2 was not leased").containsExactly(x2.id());
    }

    @Test
    void aParkedMessageHoldsBackItsAggregateUntilItIsUnparkedAndPublished() {
        OutboxMessage x1 = append("order-x", OCCURRED);
        OutboxMessage x2 = append("order-x", OCCURRED.plusSeconds(1));
        OutboxMessage y1 = append("order-y", OCCURRED.plusSeconds(2));
        store().claim("relay-1", 1, LEASE, true);
        store().recordFailures("relay-1", List.of(DeliveryFailure.park(x1.id(), "NACKED")));

        assertThat(ids(store().claim("relay-1", 10, LEASE, true))).as("x2 waits behind the parked x1")
                .containsExactly(y1.id());

        unpark(List.of(x1.id()));
        assertThat(ids(store().claim("relay-1", 10, LEASE, true))).containsExactly(x1.id());
        store().markPublished("relay-1", List.of(x1.id()));
        assertThat(ids(store().claim("relay-1", 10, LEASE, true))).containsExactly(x2.id());
    }

    @Test
    void anUnorderedClaimGoesPastAParkedMessage() {
        OutboxMessage x1 = append("order-x", OCCURRED);
        OutboxMessage x2 = append("order-x", OCCURRED.plusSeconds(1));
        store().claim("relay-1", 1, LEASE, false);
        store().recordFailures("relay-1", List.of(DeliveryFailure.park(x1.id(), "NACKED")));

        assertThat(ids(store().claim("relay-1", 10, LEASE, false))).containsExactly(x2.id());
    }

    @Test
    void orderedModeFollowsTheAppendOrderOfAnAggregateEvenWhenOccurredAtSaysTheOpposite() {
        // Written by an instance whose clock runs 3 s ahead, then by one whose clock is right.
        OutboxMessage placed = append("order-x", OCCURRED.plusSeconds(3));
        OutboxMessage cancelled = append("order-x", OCCURRED);

        assertThat(ids(store().claim("relay-1", 10, LEASE, true))).containsExactly(placed.id());
        assertThat(store().claim("relay-2", 10, LEASE, true)).isEmpty();
        store().release("relay-1", List.of(placed.id()));
        assertThat(ids(store().claim("relay-2", 1, LEASE, true))).as("not while placed is unpublished")
                .containsExactly(placed.id());
        store().markPublished("relay-2", List.of(placed.id()));
        assertThat(ids(store().claim("relay-3", 10, LEASE, true))).containsExactly(cancelled.id());
    }

    @Test
    void anExpiredLeaseNoLongerHoldsBackItsAggregate() {
        OutboxMessage x1 = append("order-x", OCCURRED);
        store().claim("relay-1", 10, LEASE, true);
        letTimePass(LEASE.plusSeconds(1));

        assertThat(store().claim("relay-2", 10, LEASE, true)).singleElement().satisfies(claimed -> {
            assertThat(claimed.id()).isEqualTo(x1.id());
            assertThat(claimed.attempts()).as("an expired lease is no failed attempt").isZero();
        });
    }

    @Test
    void messagesOfTheSameIdInDifferentAggregateTypesAreDifferentAggregates() {
        OutboxMessage order = append("42", OCCURRED);
        OutboxMessage other = new OutboxMessage(UUID.randomUUID(), "shipment", "42", "t", "x", "r", "{}",
                Map.of(), OCCURRED.plusSeconds(1), 0);
        insert(other);

        assertThat(ids(store().claim("relay-1", 10, LEASE, true))).containsExactly(order.id(), other.id());
    }

    // --- retention and stats ---------------------------------------------------------------------------------------

    @Test
    void retentionDeletesOnlyPublishedMessagesOlderThanTheAgeUpToTheLimitAndTheCountKeepsThem() {
        OutboxMessage first = append("order-a", OCCURRED);
        OutboxMessage second = append("order-b", OCCURRED);
        OutboxMessage third = append("order-c", OCCURRED);
        OutboxMessage pending = append("order-d", OCCURRED);
        store().claim("relay-1", 3, LEASE, false);
        store().markPublished("relay-1", List.of(first.id(), second.id()));
        letTimePass(Duration.ofSeconds(20));
        store().markPublished("relay-1", List.of(third.id()));
        letTimePass(Duration.ofSeconds(5));
        // first and second were published 25 s ago, third 5 s ago

        assertThat(store().deletePublishedOlderThan(Duration.ofSeconds(10), 1)).isEqualTo(1);
        assertThat(store().deletePublishedOlderThan(Duration.ofSeconds(10), 10)).isEqualTo(1);
        assertThat(store().deletePublishedOlderThan(Duration.ofSeconds(10), 10)).isZero();

        assertThat(store().deletePublishedOlderThan(Duration.ofSeconds(1), 10)).as("third").isEqualTo(1);
        assertThat(ids(store().claim("relay-2", 10, LEASE, false))).as("pending messages are never deleted")
                .containsExactly(pending.id());
        assertThat(store().count()).extracting(OutboxStats::pending, OutboxStats::published)
                .containsExactly(1L, 3L);
    }

    @Test
    void statsCountEveryStatusAndTheAgeOfTheOldestPendingMessageSinceTheStoreStoredIt() {
        assertThat(store().count()).isEqualTo(new OutboxStats(0, 0, 0, Duration.ZERO));
        OutboxMessage parked = append("order-a", OCCURRED);
        OutboxMessage published = append("order-b", OCCURRED);
        store().claim("relay-1", 2, LEASE, false);
        store().recordFailures("relay-1", List.of(DeliveryFailure.park(parked.id(), "NACKED")));
        store().markPublished("relay-1", List.of(published.id()));
        assertThat(store().count()).as("nothing pending has no age").isEqualTo(new OutboxStats(0, 1, 1, Duration.ZERO));
        letTimePass(Duration.ofSeconds(2));
        // Stored now, by the store's clock; that it occurred a day before does not count.
        append("order-c", OCCURRED.minus(Duration.ofDays(1)));
        letTimePass(Duration.ofSeconds(5));

        OutboxStats stats = store().count();

        assertThat(stats).extracting(OutboxStats::pending, OutboxStats::parked, OutboxStats::published)
                .containsExactly(1L, 1L, 1L);
        assertThat(stats.oldestPendingAge()).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(35));
    }

    @Test
    void statsTellWhenTheFirstLiveLeaseOnAPendingMessageEndsByTheStoresClock() {
        append("order-a", OCCURRED);
        assertThat(store().count().nextLeaseEnd()).as("nothing leased").isNull();
        OutboxMessage first = store().claim("relay-1", 1, LEASE, false).get(0);
        letTimePass(Duration.ofSeconds(10));
        append("order-b", OCCURRED);
        OutboxMessage second = store().claim("relay-2", 1, LEASE, false).get(0);

        assertThat(store().count().nextLeaseEnd()).as("relay-1's, 20 s left of its 30")
                .isBetween(Duration.ofSeconds(19), Duration.ofSeconds(20));
        store().markPublished("relay-1", List.of(first.id()));
        assertThat(store().count().nextLeaseEnd()).as("relay-2's, now the first")
                .isBetween(Duration.ofSeconds(29), LEASE);
        letTimePass(LEASE.plusSeconds(1));
        assertThat(store().count().nextLeaseEnd()).as("an expired lease is no longer waited for").isNull();
        assertThat(ids(store().claim("relay-1", 10, LEASE, false))).containsExactly(second.id());
    }

    private OutboxMessage append(String aggregateId, Instant occurredAt) {
        OutboxMessage message = OutboxMessages.orderPlaced(aggregateId, occurredAt);
        insert(message);
        return message;
    }

    private static List<UUID> ids(List<OutboxMessage> messages) {
        return messages.stream().map(OutboxMessage::id).toList();
    }
}
