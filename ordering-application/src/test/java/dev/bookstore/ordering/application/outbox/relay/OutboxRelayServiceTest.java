package dev.bookstore.ordering.application.outbox.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore.Row;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore.Status;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore;
import dev.bookstore.ordering.application.testing.MutableClock;
import dev.bookstore.ordering.application.testing.OutboxMessages;
import dev.bookstore.ordering.application.testing.ScriptedMessagePublisher;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The relay policy, driven through {@link OutboxRelayService} against in-memory fakes of its ports. */
class OutboxRelayServiceTest {

    private static final String OWNER = "relay-1";
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    private final MutableClock clock = MutableClock.at("2025-03-14T09:00:00Z");
    private final InMemoryOutboxStore outbox = new InMemoryOutboxStore(clock);
    private final ScriptedMessagePublisher broker = new ScriptedMessagePublisher();

    @Nested
    class ConfirmedMessages {

        @Test
        void confirmedMessagesBecomePublished() {
            OutboxMessage a = append("order-a");
            OutboxMessage b = append("order-b");
            OutboxMessage c = append("order-c");
            Instant now = clock.instant();

            RelayRound round = relay(10, 3).relayBatch();

            assertThat(round).isEqualTo(new RelayRound(3, 3, 0, 0, 0));
            assertThat(broker.deliveredIds()).containsExactly(a.id(), b.id(), c.id());
            assertThat(outbox.rows()).allSatisfy(row -> {
                assertThat(row.status()).isEqualTo(Status.PUBLISHED);
                assertThat(row.publishedAt()).isEqualTo(now);
                assertThat(row.attempts()).isZero();
                assertThat(row.claimedBy()).isNull();
            });
            assertThat(outbox.count().pending()).isZero();
        }

        @Test
        void publishedMessagesAreNotPublishedAgain() {
            append("order-a");
            RelayOutboxUseCase relay = relay(10, 3);
            relay.relayBatch();

            assertThat(relay.relayBatch()).isEqualTo(RelayRound.NOTHING);
            assertThat(broker.calls()).isEqualTo(1);
        }

        @Test
        void anEmptyOutboxDoesNotBotherTheBroker() {
            assertThat(relay(10, 3).relayBatch()).isEqualTo(RelayRound.NOTHING);
            assertThat(broker.calls()).isZero();
        }

        @Test
        void aBatchTakesTheOldestMessagesUpToTheBatchSize() {
            OutboxMessage a = append("order-a");
            OutboxMessage b = append("order-b");
            append("order-c");

            RelayRound round = relay(2, 3).relayBatch();

            assertThat(round.claimed()).isEqualTo(2);
            assertThat(broker.batchIds()).containsExactly(List.of(a.id(), b.id()));
        }

        @Test
        void theBatchIsInFlightUnderTheRelaysLeaseWithTheConfiguredConfirmTimeout() {
            OutboxMessage a = append("order-a");
            Instant now = clock.instant();
            List<Row> inFlight = new ArrayList<>();
            broker.beforeNextPublish(batch -> inFlight.add(outbox.row(a.id())));

            relay(10, 3).relayBatch();

            assertThat(inFlight).singleElement().satisfies(row -> {
                assertThat(row.claimedBy()).isEqualTo(OWNER);
                assertThat(row.claimedUntil()).isEqualTo(now.plus(LEASE));
            });
            assertThat(broker.confirmTimeouts()).containsExactly(CONFIRM_TIMEOUT);
        }

        @Test
        void twoRelaysNeverHandTheSameMessageToTheBroker() {
            List<OutboxMessage> messages = List.of(append("order-a"), append("order-b"), append("order-c"),
                    append("order-d"));
            RelayOutboxUseCase second = new OutboxRelayService(outbox, broker,
                    settings("relay-2", 2, 3, false), clock, RelayMetrics.NONE, BrokerBackpressure.NONE);
            // while the first relay's batch is in flight, the second one relays too
            broker.beforeNextPublish(batch -> second.relayBatch());

            relay(2, 3).relayBatch();

            assertThat(broker.deliveredIds()).containsExactlyInAnyOrderElementsOf(
                    messages.stream().map(OutboxMessage::id).toList());
            assertThat(outbox.rows()).allSatisfy(row -> assertThat(row.status()).isEqualTo(Status.PUBLISHED));
        }
    }

    @Nested
    class RefusedMessages {

        @ParameterizedTest
        @EnumSource(value = Outcome.class, names = {"RETURNED", "NACKED"})
        void aRefusedMessageIsRetriedWithBackoff(Outcome refusal) {
            OutboxMessage a = append("order-a");
            OutboxMessage b = append("order-b");
            broker.answerOnce(a.id(), refusal);
            Instant now = clock.instant();

            RelayRound round = relay(10, 3).relayBatch();

            assertThat(round).isEqualTo(new RelayRound(2, 1, 1, 0, 0));
            Row refused = outbox.row(a.id());
            assertThat(refused.status()).isEqualTo(Status.PENDING);
            assertThat(refused.attempts()).isEqualTo(1);
            assertThat(refused.lastError()).startsWith(refusal.name()).contains("(scripted)");
            assertThat(refused.claimedBy()).isNull();
            // the first failure's ceiling is the initial backoff; equal jitter waits at least half of it
            assertThat(refused.nextAttemptAt()).isBetween(now.plus(INITIAL_BACKOFF.dividedBy(2)),
                    now.plus(INITIAL_BACKOFF));
            assertThat(outbox.row(b.id()).status()).isEqualTo(Status.PUBLISHED);
        }

        @Test
        void aRetriedMessageWaitsForItsBackoffAndKeepsItsId() {
            OutboxMessage a = append("order-a");
            broker.answerOnce(a.id(), Outcome.RETURNED);
            RelayOutboxUseCase relay = relay(10, 3);
            relay.relayBatch();

            assertThat(relay.relayBatch()).isEqualTo(RelayRound.NOTHING);

            clock.set(outbox.row(a.id()).nextAttemptAt());
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 1, 0, 0, 0));
            assertThat(broker.batchIds()).containsExactly(List.of(a.id()), List.of(a.id()));
            assertThat(broker.batches().get(1).get(0).attempts()).isEqualTo(1);
            assertThat(outbox.row(a.id()).status()).isEqualTo(Status.PUBLISHED);
        }

        @Test
        void theBackoffDoublesWithEveryFailureUpToItsMaximum() {
            OutboxMessage a = append("order-a");
            broker.answer(a.id(), Outcome.NACKED);
            RelayOutboxUseCase relay = relay(10, 10);

            for (int failures = 1; failures <= 9; failures++) {
                Instant now = clock.instant();
                relay.relayBatch();

                Duration ceiling = INITIAL_BACKOFF.multipliedBy(1L << (failures - 1));
                if (ceiling.compareTo(MAX_BACKOFF) > 0) {
                    ceiling = MAX_BACKOFF;
                }
                Row row = outbox.row(a.id());
                assertThat(row.attempts()).isEqualTo(failures);
                assertThat(row.nextAttemptAt()).isBetween(now.plus(ceiling.dividedBy(2)), now.plus(ceiling));
                clock.set(row.nextAttemptAt());
            }
        }

        @Test
        void aMessageIsParkedAfterMaxAttemptsAndTheMessagesBehindItAreStillPublished() {
            OutboxMessage poison = append("order-poison");
            broker.answer(poison.id(), Outcome.RETURNED);
            RelayOutboxUseCase relay = relay(10, 3);
            List<UUID> behind = new ArrayList<>();

            for (int attempt = 1; attempt <= 3; attempt++) {
                behind.add(append("order-" + attempt).id());

                RelayRound round = relay.relayBatch();

                boolean last = attempt == 3;
                assertThat(round).isEqualTo(new RelayRound(2, 1, last ? 0 : 1, last ? 1 : 0, 0));
                assertThat(broker.deliveredIds()).containsExactlyElementsOf(behind);
                clock.advance(MAX_BACKOFF);
            }

            Row parked = outbox.row(poison.id());
            assertThat(parked.status()).isEqualTo(Status.PARKED);
            assertThat(parked.attempts()).isEqualTo(3);
            assertThat(parked.nextAttemptAt()).isNull();
            assertThat(parked.lastError()).contains("RETURNED");
            assertThat(parked.claimedBy()).isNull();
            assertThat(broker.attemptsOf(poison.id())).isEqualTo(3);
        }

        @Test
        void aParkedMessageIsNeverTriedAgain() {
            OutboxMessage poison = append("order-poison");
            broker.answer(poison.id(), Outcome.NACKED);
            RelayOutboxUseCase relay = relay(10, 1);
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 0, 0, 1, 0));

            clock.advance(Duration.ofDays(1));
            OutboxMessage next = append("order-next");

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 1, 0, 0, 0));
            assertThat(broker.attemptsOf(poison.id())).isEqualTo(1);
            assertThat(broker.deliveredIds()).containsExactly(next.id());
            assertThat(outbox.count().parked()).isEqualTo(1);
        }
    }

    @Nested
    class BrokerOutage {

        @Test
        void anUnavailableBrokerReleasesTheBatchUntriedWithoutCountingAttempts() {
            List<OutboxMessage> messages = List.of(append("order-a"), append("order-b"), append("order-c"));
            broker.brokerDown();
            // with one allowed attempt, a single counted attempt would park a message
            RelayOutboxUseCase relay = relay(10, 1);

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(3, 0, 0, 0, 3));
            for (int round = 0; round < 5; round++) {
                assertThat(outbox.rows()).allSatisfy(row -> {
                    assertThat(row.status()).isEqualTo(Status.PENDING);
                    assertThat(row.attempts()).isZero();
                    assertThat(row.nextAttemptAt()).isNull();
                    assertThat(row.claimedBy()).isNull();
                });
                clock.advance(Duration.ofSeconds(1));
                // while the broker stays away a round only probes it: nothing claimed, nothing to release
                assertThat(relay.relayBatch()).isEqualTo(RelayRound.NOTHING);
            }

            broker.brokerUp();
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(3, 3, 0, 0, 0));
            assertThat(broker.deliveredIds()).containsExactlyElementsOf(
                    messages.stream().map(OutboxMessage::id).toList());
        }

        @Test
        void whileTheBrokerIsAwayARoundProbesItAndClaimsNothing() {
            append("order-a");
            append("order-b");
            broker.brokerDown();
            RelayOutboxUseCase relay = relay(10, 3);

            assertThat(relay.relayBatch().released()).isEqualTo(2);
            assertThat(relay.brokerUnavailable()).isTrue();
            int batchesBefore = broker.batchIds().size();

            assertThat(relay.relayBatch()).isEqualTo(RelayRound.NOTHING);
            assertThat(relay.drain()).isEqualTo(RelayRound.NOTHING);

            assertThat(broker.probes()).isEqualTo(2);
            assertThat(broker.batchIds()).hasSize(batchesBefore); // no publish attempted
            assertThat(outbox.rows()).allSatisfy(row -> {
                assertThat(row.claimedBy()).isNull(); // free for a relay that reaches the broker
                assertThat(row.attempts()).isZero();
                assertThat(row.nextAttemptAt()).isNull();
            });
            assertThat(relay.brokerUnavailable()).isTrue();
        }

        @Test
        void theFirstProbeThatReachesTheBrokerClaimsAndPublishesInTheSameRound() {
            List<OutboxMessage> messages = List.of(append("order-a"), append("order-b"));
            broker.brokerDown();
            RelayOutboxUseCase relay = relay(10, 3);
            relay.relayBatch();
            relay.relayBatch();

            broker.brokerUp();

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(2, 2, 0, 0, 0));
            assertThat(relay.brokerUnavailable()).isFalse();
            assertThat(broker.deliveredIds()).containsExactlyElementsOf(
                    messages.stream().map(OutboxMessage::id).toList());
        }

        @Test
        void aRelayThatSawNoOutageDoesNotProbe() {
            append("order-a");
            RelayOutboxUseCase relay = relay(10, 3);

            relay.relayBatch();
            relay.relayBatch();

            assertThat(broker.probes()).isZero();
            assertThat(relay.brokerUnavailable()).isFalse();
        }

        @Test
        void releasedMessagesAreDueAgainAtOnce() {
            append("order-a");
            append("order-b");
            broker.brokerUnavailableForNextCalls(1);
            RelayOutboxUseCase relay = relay(10, 3);

            assertThat(relay.relayBatch().released()).isEqualTo(2);
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(2, 2, 0, 0, 0));
        }

        @Test
        void aMessageThatMetAClosedChannelIsReleasedEvenWhenOthersWereConfirmed() {
            OutboxMessage a = append("order-a");
            OutboxMessage b = append("order-b");
            broker.answerOnce(b.id(), Outcome.BROKER_UNAVAILABLE);

            RelayRound round = relay(10, 1).relayBatch();

            assertThat(round).isEqualTo(new RelayRound(2, 1, 0, 0, 1));
            assertThat(outbox.row(a.id()).status()).isEqualTo(Status.PUBLISHED);
            Row released = outbox.row(b.id());
            assertThat(released.status()).isEqualTo(Status.PENDING);
            assertThat(released.attempts()).isZero();
            assertThat(released.claimedBy()).isNull();
        }
    }

    @Nested
    class Timeouts {

        @Test
        void aTimeoutCountsAsAnAttemptWhenTheBrokerConfirmedOtherMessagesOfTheBatch() {
            OutboxMessage a = append("order-a");
            OutboxMessage b = append("order-b");
            broker.answerOnce(a.id(), Outcome.TIMED_OUT);
            Instant now = clock.instant();

            RelayRound round = relay(10, 3).relayBatch();

            assertThat(round).isEqualTo(new RelayRound(2, 1, 1, 0, 0));
            Row timedOut = outbox.row(a.id());
            assertThat(timedOut.attempts()).isEqualTo(1);
            assertThat(timedOut.lastError()).startsWith("TIMED_OUT");
            assertThat(timedOut.nextAttemptAt()).isBetween(now.plus(INITIAL_BACKOFF.dividedBy(2)),
                    now.plus(INITIAL_BACKOFF));
            assertThat(outbox.row(b.id()).status()).isEqualTo(Status.PUBLISHED);
        }

        @ParameterizedTest
        @EnumSource(value = Outcome.class, names = {"RETURNED", "NACKED"})
        void aTimeoutCountsAsAnAttemptWhenTheBrokerRefusedOtherMessagesOfTheBatch(Outcome refusal) {
            OutboxMessage a = append("order-a");
            OutboxMessage b = append("order-b");
            broker.answerOnce(a.id(), Outcome.TIMED_OUT);
            broker.answerOnce(b.id(), refusal);

            RelayRound round = relay(10, 3).relayBatch();

            assertThat(round).isEqualTo(new RelayRound(2, 0, 2, 0, 0));
            assertThat(outbox.row(a.id()).attempts()).isEqualTo(1);
            assertThat(outbox.row(b.id()).attempts()).isEqualTo(1);
        }

        @Test
        void aBatchThatTimedOutAsAWholeIsReleasedWithoutCountingAttempts() {
            OutboxMessage a = append("order-a");
            OutboxMessage b = append("order-b");
            broker.answer(a.id(), Outcome.TIMED_OUT).answer(b.id(), Outcome.TIMED_OUT);
            RelayOutboxUseCase relay = relay(10, 1);

            for (int round = 0; round < 3; round++) {
                assertThat(relay.relayBatch()).isEqualTo(new RelayRound(2, 0, 0, 0, 2));
            }

            assertThat(outbox.rows()).allSatisfy(row -> {
                assertThat(row.status()).isEqualTo(Status.PENDING);
                assertThat(row.attempts()).isZero();
                assertThat(row.claimedBy()).isNull();
            });
        }

        @Test
        void aTimeoutNextToAnUnavailableBrokerIsNotCounted() {
            OutboxMessage a = append("order-a");
            OutboxMessage b = append("order-b");
            broker.answerOnce(a.id(), Outcome.TIMED_OUT).answerOnce(b.id(), Outcome.BROKER_UNAVAILABLE);

            RelayRound round = relay(10, 1).relayBatch();

            assertThat(round).isEqualTo(new RelayRound(2, 0, 0, 0, 2));
            assertThat(outbox.row(a.id()).attempts()).isZero();
            assertThat(outbox.row(b.id()).attempts()).isZero();
        }
    }

    @Nested
    class Draining {

        @Test
        void drainRelaysBatchesForAsLongAsTheyComeBackFull() {
            for (int i = 0; i < 5; i++) {
                append("order-" + i);
            }

            RelayRound drained = relay(2, 3).drain();

            assertThat(drained).isEqualTo(new RelayRound(5, 5, 0, 0, 0));
            assertThat(broker.batches()).extracting(List::size).containsExactly(2, 2, 1);
            assertThat(outbox.claimCalls()).isEqualTo(3);
        }

        @Test
        void drainStopsAtTheFirstShortBatch() {
            for (int i = 0; i < 4; i++) {
                append("order-" + i);
            }

            RelayRound drained = relay(3, 3).drain();

            assertThat(drained).isEqualTo(new RelayRound(4, 4, 0, 0, 0));
            assertThat(outbox.claimCalls()).isEqualTo(2);
        }

        @Test
        void drainOfAnEmptyOutboxLooksOnce() {
            assertThat(relay(3, 3).drain()).isEqualTo(RelayRound.NOTHING);
            assertThat(outbox.claimCalls()).isEqualTo(1);
            assertThat(broker.calls()).isZero();
        }

        @Test
        void drainStopsWhenTheBrokerIsUnavailable() {
            for (int i = 0; i < 5; i++) {
                append("order-" + i);
            }
            broker.brokerDown();

            RelayRound drained = relay(2, 3).drain();

            assertThat(drained).isEqualTo(new RelayRound(2, 0, 0, 0, 2));
            assertThat(outbox.claimCalls()).isEqualTo(1);
        }

        @Test
        void drainGoesOnPastMessagesThatFailed() {
            OutboxMessage a = append("order-a");
            for (int i = 0; i < 3; i++) {
                append("order-" + i);
            }
            broker.answerOnce(a.id(), Outcome.NACKED);

            RelayRound drained = relay(2, 3).drain();

            assertThat(drained).isEqualTo(new RelayRound(4, 3, 1, 0, 0));
            assertThat(outbox.claimCalls()).isEqualTo(3);
        }
    }

    @Nested
    class OrderedMode {

        @Test
        void orderedModePublishesOneMessagePerAggregatePerRound() {
            OutboxMessage x1 = append("order-x");
            OutboxMessage y1 = append("order-y");
            OutboxMessage x2 = append("order-x");
            OutboxMessage x3 = append("order-x");
            OutboxMessage y2 = append("order-y");
            RelayOutboxUseCase relay = relay(10, 3, true);

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(2, 2, 0, 0, 0));
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(2, 2, 0, 0, 0));
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 1, 0, 0, 0));
            assertThat(relay.relayBatch()).isEqualTo(RelayRound.NOTHING);

            assertThat(broker.batchIds()).containsExactly(
                    List.of(x1.id(), y1.id()),
                    List.of(x2.id(), y2.id()),
                    List.of(x3.id()));
        }

        @Test
        void orderedModePublishesAnAggregatesMessagesInTheOrderTheyWereStoredWhateverTheirClocksSay() {
            // Placed on an instance whose clock runs 3 s ahead, cancelled a moment later on one whose clock is
            // right: the cancellation says it occurred first. The store's order (the database's) decides.
            OutboxMessage placed = OutboxMessages.orderPlaced("order-x", clock.instant().plusSeconds(3));
            OutboxMessage cancelled = OutboxMessages.orderPlaced("order-x", clock.instant());
            outbox.append(placed);
            outbox.append(cancelled);
            RelayOutboxUseCase relay = relay(10, 3, true);

            relay.drain();

            assertThat(broker.batchIds()).containsExactly(List.of(placed.id()), List.of(cancelled.id()));
        }

        @Test
        void unorderedModeSendsSeveralMessagesOfOneAggregateTogether() {
            append("order-x");
            append("order-x");
            append("order-x");

            assertThat(relay(10, 3, false).relayBatch()).isEqualTo(new RelayRound(3, 3, 0, 0, 0));
        }

        @Test
        void aFailingMessageHoldsBackItsAggregateButNoOther() {
            OutboxMessage x1 = append("order-x");
            OutboxMessage x2 = append("order-x");
            OutboxMessage y1 = append("order-y");
            OutboxMessage y2 = append("order-y");
            broker.answer(x1.id(), Outcome.RETURNED);
            RelayOutboxUseCase relay = relay(10, 2, true);

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(2, 1, 1, 0, 0));
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 1, 0, 0, 0));
            assertThat(relay.relayBatch()).isEqualTo(RelayRound.NOTHING);

            clock.advance(MAX_BACKOFF);
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 0, 0, 1, 0));

            assertThat(broker.deliveredIds()).containsExactly(y1.id(), y2.id());
            assertThat(outbox.row(x2.id()).status()).isEqualTo(Status.PENDING);
        }

        @Test
        void aParkedMessageKeepsItsPlaceSoThatTheAggregateStaysInOrder() {
            OutboxMessage x1 = append("order-x");
            OutboxMessage x2 = append("order-x");
            broker.answer(x1.id(), Outcome.NACKED);
            RelayOutboxUseCase relay = relay(10, 1, true);
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 0, 0, 1, 0));

            clock.advance(Duration.ofDays(1));
            assertThat(relay.relayBatch()).isEqualTo(RelayRound.NOTHING);

            // an operator fixed the routing and unparks the message
            broker.answer(x1.id(), Outcome.CONFIRMED);
            outbox.unpark(List.of(x1.id()));
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 1, 0, 0, 0));
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 1, 0, 0, 0));
            assertThat(broker.deliveredIds()).containsExactly(x1.id(), x2.id());
        }
    }

    @Nested
    class GracefulShutdown {

        @Test
        void aStoppedRelayClaimsNothing() {
            append("order-a");
            RelayOutboxUseCase relay = relay(10, 3);

            relay.stopClaiming();

            assertThat(relay.relayBatch()).isEqualTo(RelayRound.NOTHING);
            assertThat(relay.drain()).isEqualTo(RelayRound.NOTHING);
            assertThat(broker.calls()).isZero();
            assertThat(outbox.rows()).singleElement().satisfies(row -> {
                assertThat(row.status()).isEqualTo(Status.PENDING);
                assertThat(row.claimedBy()).isNull();
            });
        }

        @Test
        void aStopDuringABatchRecordsItsConfirmsAndReleasesWhatGotNoAnswerWithoutCountingAttempts() {
            OutboxMessage confirmed = append("order-a");
            OutboxMessage timedOut = append("order-b");
            OutboxMessage notSent = append("order-c");
            OutboxMessage refused = append("order-d");
            RelayOutboxUseCase relay = relay(10, 1);
            broker.answerOnce(timedOut.id(), Outcome.TIMED_OUT)
                    .answerOnce(notSent.id(), Outcome.BROKER_UNAVAILABLE)
                    .answerOnce(refused.id(), Outcome.NACKED)
                    .beforeNextPublish(batch -> relay.stopClaiming()); // SIGTERM while the batch is in flight

            RelayRound round = relay.relayBatch();

            // with one allowed attempt, a counted timeout would have parked the message
            assertThat(round).isEqualTo(new RelayRound(4, 1, 0, 1, 2));
            assertThat(outbox.row(confirmed.id()).status()).isEqualTo(Status.PUBLISHED);
            for (OutboxMessage released : List.of(timedOut, notSent)) {
                Row row = outbox.row(released.id());
                assertThat(row.status()).isEqualTo(Status.PENDING);
                assertThat(row.attempts()).isZero();
                assertThat(row.nextAttemptAt()).isNull();
                assertThat(row.claimedBy()).isNull();
            }
            // a refusal the broker did answer is about the message, shutdown or not
            assertThat(outbox.row(refused.id()).status()).isEqualTo(Status.PARKED);
        }

        @Test
        void drainEndsWithTheBatchInFlightAndLeavesTheBacklogUnleased() {
            for (int i = 0; i < 30; i++) {
                append("order-" + i);
            }
            RelayOutboxUseCase relay = relay(10, 3);
            broker.beforeNextPublish(batch -> relay.stopClaiming());

            RelayRound round = relay.drain();

            assertThat(round).isEqualTo(new RelayRound(10, 10, 0, 0, 0));
            assertThat(broker.calls()).isEqualTo(1);
            assertThat(outbox.rows()).filteredOn(row -> row.status() == Status.PENDING).hasSize(20)
                    .allSatisfy(row -> assertThat(row.claimedBy()).isNull());
        }

        @Test
        void aResumedRelayClaimsAgain() {
            append("order-a");
            RelayOutboxUseCase relay = relay(10, 3);
            relay.stopClaiming();

            relay.resumeClaiming();

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 1, 0, 0, 0));
        }
    }

    @Nested
    class OutcomeWrites {

        @Test
        void aFailedOutcomeWriteIsTriedAgainSoThatAShortDatabaseHiccupCausesNoRepublish() {
            OutboxMessage a = append("order-a");
            OutboxMessage b = append("order-b");
            HiccupStore store = new HiccupStore(outbox, 2, Duration.ZERO);
            RelayOutboxUseCase relay = new OutboxRelayService(store, broker, settings(OWNER, 10, 3, false),
                    clock, RelayMetrics.NONE, BrokerBackpressure.NONE);

            RelayRound round = relay.relayBatch();

            assertThat(round).isEqualTo(new RelayRound(2, 2, 0, 0, 0));
            assertThat(store.failures).isEqualTo(2);
            assertThat(outbox.rows()).allSatisfy(row -> {
                assertThat(row.status()).isEqualTo(Status.PUBLISHED);
                assertThat(row.claimedBy()).isNull();
            });
            assertThat(relay.relayBatch()).isEqualTo(RelayRound.NOTHING);
            assertThat(broker.deliveredIds()).containsExactly(a.id(), b.id());
        }

        @Test
        void aWriteThatKeepsFailingIsGivenUpBeforeTheLeaseEnds() {
            append("order-a");
            // every failed write takes 5 s of the 30 s lease
            HiccupStore store = new HiccupStore(outbox, Integer.MAX_VALUE, Duration.ofSeconds(5));
            Instant claimed = clock.instant();
            RelayOutboxUseCase relay = new OutboxRelayService(store, broker, settings(OWNER, 10, 3, false),
                    clock, RelayMetrics.NONE, BrokerBackpressure.NONE);

            assertThatThrownBy(relay::relayBatch).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("database hiccup");

            assertThat(clock.instant()).isBefore(claimed.plus(LEASE));
            assertThat(store.failures).isGreaterThan(1);
            assertThat(outbox.rows()).singleElement().satisfies(row -> {
                assertThat(row.status()).isEqualTo(Status.PENDING);
                assertThat(row.claimedBy()).isEqualTo(OWNER); // its lease expires; another round takes it then
            });
        }
    }

    /** The in-memory outbox whose outcome writes fail {@code failuresLeft} times, each taking {@code duration}. */
    private final class HiccupStore implements OutboxLeases {

        private final InMemoryOutboxStore delegate;
        private final Duration duration;
        private int failuresLeft;
        int failures;

        HiccupStore(InMemoryOutboxStore delegate, int failuresLeft, Duration duration) {
            this.delegate = delegate;
            this.failuresLeft = failuresLeft;
            this.duration = duration;
        }

        private void maybeFail() {
            if (failuresLeft > 0) {
                failuresLeft--;
                failures++;
                clock.advance(duration);
                throw new IllegalStateException("database hiccup");
            }
        }

        @Override
        public List<OutboxMessage> claim(String owner, int batchSize, Duration lease, boolean ordered) {
            return delegate.claim(owner, batchSize, lease, ordered);
        }

        @Override
        public int markPublished(String owner, Collection<UUID> ids) {
            maybeFail();
            return delegate.markPublished(owner, ids);
        }

        @Override
        public int recordFailures(String owner, List<DeliveryFailure> deliveryFailures) {
            maybeFail();
            return delegate.recordFailures(owner, deliveryFailures);
        }

        @Override
        public int release(String owner, Collection<UUID> ids) {
            maybeFail();
            return delegate.release(owner, ids);
        }

    }

    @Test
    void aRelayWhoseLeaseWasTakenOverCannotRecordItsOutcomes() {
        OutboxMessage a = append("order-a");
        OutboxMessage b = append("order-b");
        broker.answerOnce(b.id(), Outcome.RETURNED);
        // the confirms take longer than the lease; meanwhile another relay takes the rows over
        broker.beforeNextPublish(batch -> {
            clock.advance(LEASE.plusSeconds(1));
            outbox.claim("relay-2", 10, LEASE, false);
        });

        relay(10, 3).relayBatch();

        assertThat(outbox.rows()).allSatisfy(row -> {
            assertThat(row.status()).isEqualTo(Status.PENDING);
            assertThat(row.attempts()).isZero();
            assertThat(row.claimedBy()).isEqualTo("relay-2");
        });
        assertThat(broker.deliveredIds()).containsExactly(a.id());
    }

    /** A channel the broker closes over one message of the batch (CHANNEL_CLOSED): bounded retries, then blame. */
    @Nested
    class ChannelErrors {

        private RelayOutboxUseCase relayWithRetries(int channelErrorRetries, int maxAttempts) {
            return new OutboxRelayService(outbox, broker, new RelaySettings(OWNER, 10, LEASE, CONFIRM_TIMEOUT,
                    maxAttempts, Backoff.exponential(INITIAL_BACKOFF, MAX_BACKOFF), false, channelErrorRetries,
                    RelaySettings.Unroutable.RETRY), clock, RelayMetrics.NONE, BrokerBackpressure.NONE);
        }

        @Test
        void theBatchIsReleasedUntriedForTheBoundedRetriesThenOnlyTheMessageTheCloseFollowsIsCharged() {
            OutboxMessage a = append("a");
            OutboxMessage poison = append("poison");
            OutboxMessage c = append("c");
            broker.poison(poison.id());
            RelayOutboxUseCase relay = relayWithRetries(2, 5);

            // the original round and two retries: released, nobody charged (a, before the poison, went out)
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(3, 1, 0, 0, 2));
            assertThat(outbox.row(a.id()).status()).isEqualTo(Status.PUBLISHED);
            for (int retry = 0; retry < 2; retry++) {
                assertThat(relay.relayBatch()).isEqualTo(new RelayRound(2, 0, 0, 0, 2));
                assertThat(outbox.rows()).allSatisfy(row -> assertThat(row.attempts()).isZero());
            }
            // then one at a time: the poison message is charged, c goes out
            RelayRound isolated = relay.relayBatch();

            assertThat(isolated).isEqualTo(new RelayRound(2, 1, 1, 0, 0));
            assertThat(broker.batchIds().subList(3, 5)).containsExactly(List.of(poison.id()), List.of(c.id()));
            assertThat(outbox.row(poison.id()).attempts()).isEqualTo(1);
            assertThat(outbox.row(poison.id()).lastError()).startsWith("CHANNEL_CLOSED");
            assertThat(outbox.row(c.id()).status()).isEqualTo(Status.PUBLISHED);
            assertThat(outbox.row(c.id()).attempts()).isZero();
            assertThat(outbox.row(a.id()).attempts()).isZero();
        }

        @Test
        void thePoisonMessageParksAfterMaxAttemptsAndNoOtherMessageIsEverCharged() {
            List<OutboxMessage> good = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                good.add(append("good-" + i));
            }
            OutboxMessage poison = append("poison");
            good.add(append("good-last"));
            broker.poison(poison.id());
            RelayOutboxUseCase relay = relayWithRetries(1, 2);

            for (int round = 0; round < 20 && outbox.row(poison.id()).status() != Status.PARKED; round++) {
                relay.relayBatch();
                clock.advance(MAX_BACKOFF); // the poison message's backoff
            }

            assertThat(outbox.row(poison.id()).status()).isEqualTo(Status.PARKED);
            assertThat(outbox.row(poison.id()).attempts()).isEqualTo(2);
            assertThat(good).allSatisfy(message -> {
                assertThat(outbox.row(message.id()).status()).isEqualTo(Status.PUBLISHED);
                assertThat(outbox.row(message.id()).attempts()).isZero();
            });
        }

        @Test
        void withNoRetriesTheNextRoundGoesOneAtATime() {
            OutboxMessage poison = append("poison");
            OutboxMessage b = append("b");
            broker.poison(poison.id());
            RelayOutboxUseCase relay = relayWithRetries(0, 3);

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(2, 0, 0, 0, 2));
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(2, 1, 1, 0, 0));
            assertThat(outbox.row(b.id()).attempts()).isZero();
        }

        @Test
        void theOneAtATimeRoundKeepsToOneConfirmTimeoutAndReleasesWhatItCouldNotSend() {
            OutboxMessage poison = append("poison");
            OutboxMessage b = append("b");
            OutboxMessage c = append("c");
            broker.poison(poison.id());
            RelayOutboxUseCase relay = relayWithRetries(0, 3);
            relay.relayBatch();
            // the poison message alone takes the whole confirm timeout
            broker.beforeNextPublish(batch -> clock.advance(CONFIRM_TIMEOUT));

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(3, 0, 1, 0, 2));
            assertThat(broker.confirmTimeouts().get(1)).isEqualTo(CONFIRM_TIMEOUT);
            assertThat(broker.calls()).isEqualTo(2);
            assertThat(outbox.row(b.id()).attempts()).isZero();
            assertThat(outbox.row(c.id()).attempts()).isZero();
            assertThat(outbox.row(c.id()).claimedBy()).isNull();
        }

        @Test
        void aRoundWithoutAChannelCloseStartsTheCountAgain() {
            OutboxMessage a = append("a");
            broker.answerOnce(a.id(), Outcome.CHANNEL_CLOSED, Outcome.CONFIRMED);
            RelayOutboxUseCase relay = relayWithRetries(1, 3);
            relay.relayBatch();
            relay.relayBatch();
            OutboxMessage b = append("b");
            broker.answerOnce(b.id(), Outcome.CHANNEL_CLOSED);

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 0, 0, 0, 1)); // released, not isolated
            assertThat(outbox.row(b.id()).attempts()).isZero();
            assertThat(broker.batchIds().get(2)).containsExactly(b.id());
        }

        @Test
        void aChannelCloseIsNotABrokerOutage() {
            OutboxMessage a = append("a");
            broker.answerOnce(a.id(), Outcome.CHANNEL_CLOSED);
            OutboxRelayService relay = (OutboxRelayService) relayWithRetries(3, 3);

            relay.relayBatch();

            assertThat(relay.brokerUnavailable()).isFalse();
        }
    }

    /** ordering.outbox.unroutable: what a message no queue took (RETURNED) becomes. */
    @Nested
    class Unroutable {

        private RelayOutboxUseCase relayWith(RelaySettings.Unroutable unroutable, int maxAttempts) {
            return new OutboxRelayService(outbox, broker, new RelaySettings(OWNER, 10, LEASE, CONFIRM_TIMEOUT,
                    maxAttempts, Backoff.exponential(INITIAL_BACKOFF, MAX_BACKOFF), false,
                    3, unroutable), clock, RelayMetrics.NONE, BrokerBackpressure.NONE);
        }

        @Test
        void retryCountsAnAttemptAndParksAfterMaxAttempts() {
            OutboxMessage a = append("a");
            broker.answer(a.id(), Outcome.RETURNED);
            RelayOutboxUseCase relay = relayWith(RelaySettings.Unroutable.RETRY, 2);

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 0, 1, 0, 0));
            assertThat(outbox.row(a.id()).status()).isEqualTo(Status.PENDING);
            clock.advance(MAX_BACKOFF);
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 0, 0, 1, 0));
            assertThat(outbox.row(a.id()).status()).isEqualTo(Status.PARKED);
        }

        @Test
        void parkParksAtOnceWithTheReturnAsItsError() {
            OutboxMessage a = append("a");
            OutboxMessage b = append("b");
            broker.answer(a.id(), Outcome.RETURNED);

            assertThat(relayWith(RelaySettings.Unroutable.PARK, 10).relayBatch())
                    .isEqualTo(new RelayRound(2, 1, 0, 1, 0));
            assertThat(outbox.row(a.id()).status()).isEqualTo(Status.PARKED);
            assertThat(outbox.row(a.id()).attempts()).isEqualTo(1);
            assertThat(outbox.row(a.id()).lastError()).startsWith("RETURNED").contains("NO_ROUTE");
            assertThat(outbox.row(b.id()).status()).isEqualTo(Status.PUBLISHED);
        }

        @Test
        void parkDoesNotParkOtherRefusals() {
            OutboxMessage a = append("a");
            broker.answerOnce(a.id(), Outcome.NACKED);

            assertThat(relayWith(RelaySettings.Unroutable.PARK, 10).relayBatch())
                    .isEqualTo(new RelayRound(1, 0, 1, 0, 0));
        }

        @Test
        void publishCountsTheUnroutableMessageAsPublishedWithoutAnAttempt() {
            OutboxMessage a = append("a");
            broker.answer(a.id(), Outcome.RETURNED);

            assertThat(relayWith(RelaySettings.Unroutable.PUBLISH, 10).relayBatch())
                    .isEqualTo(new RelayRound(1, 1, 0, 0, 0));
            assertThat(outbox.row(a.id()).status()).isEqualTo(Status.PUBLISHED);
            assertThat(outbox.row(a.id()).attempts()).isZero();
        }
    }

    /** A broker under a resource alarm blocks publishing: no claim, no attempt, until it is unblocked. */
    @Nested
    class Backpressure {

        private volatile String blocked;

        private RelayOutboxUseCase gatedRelay() {
            return new OutboxRelayService(outbox, broker, settings(OWNER, 10, 3, false), clock,
                    RelayMetrics.NONE, () -> java.util.Optional.ofNullable(blocked));
        }

        @Test
        void whileTheBrokerBlocksPublishingNothingIsClaimedOrSent() {
            OutboxMessage a = append("a");
            RelayOutboxUseCase relay = gatedRelay();
            blocked = "low on memory";

            assertThat(relay.relayBatch()).isEqualTo(RelayRound.NOTHING);
            assertThat(relay.drain()).isEqualTo(RelayRound.NOTHING);

            assertThat(outbox.claimCalls()).isZero();
            assertThat(broker.calls()).isZero();
            assertThat(outbox.row(a.id()).claimedBy()).isNull();
            assertThat(outbox.row(a.id()).attempts()).isZero();
        }

        @Test
        void onceUnblockedTheRelayClaimsAndPublishesAgain() {
            OutboxMessage a = append("a");
            RelayOutboxUseCase relay = gatedRelay();
            blocked = "low on disk";
            relay.relayBatch();

            blocked = null;

            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(1, 1, 0, 0, 0));
            assertThat(outbox.row(a.id()).status()).isEqualTo(Status.PUBLISHED);
            assertThat(outbox.row(a.id()).attempts()).isZero();
        }
    }

    @Nested
    class Metrics {

        /** What the relay reported, in order, as text: "published a 5ms", "failed b RETURNED charged", "parked b". */
        private final List<String> reported = new ArrayList<>();
        private final RelayMetrics recording = new RelayMetrics() {
            @Override
            public void published(OutboxMessage message, Duration publishToConfirm, Duration occurredToConfirm) {
                reported.add("published " + message.aggregateId() + " " + occurredToConfirm.toMillis() + "ms");
            }

            @Override
            public void failed(OutboxMessage message, Outcome reason, boolean charged) {
                reported.add("failed " + message.aggregateId() + " " + reason + (charged ? " charged" : " untried"));
            }

            @Override
            public void parked(OutboxMessage message) {
                reported.add("parked " + message.aggregateId());
            }
        };

        private RelayOutboxUseCase measuredRelay(int maxAttempts) {
            return new OutboxRelayService(outbox, broker, settings(OWNER, 10, maxAttempts, false), clock,
                    recording, BrokerBackpressure.NONE);
        }

        @Test
        void everyOutcomeIsReportedOncePerMessage() {
            append("a");
            OutboxMessage b = append("b");
            OutboxMessage c = append("c");
            broker.answerOnce(b.id(), Outcome.RETURNED);
            broker.answerOnce(c.id(), Outcome.NACKED);
            clock.advance(Duration.ofMillis(40));

            measuredRelay(1).relayBatch();

            // a occurred 43 ms before the confirm: each of the 3 appends advances the clock 1 ms, then 40 ms
            assertThat(reported).containsExactly("published a 43ms", "failed b RETURNED charged", "parked b",
                    "failed c NACKED charged", "parked c");
        }

        @Test
        void aRetryIsAFailureButNotAParking() {
            OutboxMessage a = append("a");
            broker.answerOnce(a.id(), Outcome.NACKED);

            measuredRelay(3).relayBatch();

            assertThat(reported).containsExactly("failed a NACKED charged");
        }

        @Test
        void anUnavailableBrokerIsReportedAsFailuresThatAreNotCharged() {
            append("a");
            broker.brokerDown();

            measuredRelay(3).relayBatch();

            assertThat(reported).containsExactly("failed a BROKER_UNAVAILABLE untried");
        }
    }

    private OutboxMessage append(String aggregateId) {
        OutboxMessage message = OutboxMessages.orderPlaced(aggregateId, clock.instant());
        outbox.append(message);
        // time passes between two events, so each message is strictly younger than the one before
        clock.advance(Duration.ofMillis(1));
        return message;
    }

    private RelayOutboxUseCase relay(int batchSize, int maxAttempts) {
        return relay(batchSize, maxAttempts, false);
    }

    private RelayOutboxUseCase relay(int batchSize, int maxAttempts, boolean ordered) {
        return new OutboxRelayService(outbox, broker, settings(OWNER, batchSize, maxAttempts, ordered), clock, RelayMetrics.NONE, BrokerBackpressure.NONE);
    }

    private static RelaySettings settings(String owner, int batchSize, int maxAttempts, boolean ordered) {
        return new RelaySettings(owner, batchSize, LEASE, CONFIRM_TIMEOUT, maxAttempts,
                Backoff.exponential(INITIAL_BACKOFF, MAX_BACKOFF), ordered, 3, RelaySettings.Unroutable.RETRY);
    }
}
