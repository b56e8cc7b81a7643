package dev.bookstore.ordering.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.Backoff;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.RelayRound;
import dev.bookstore.ordering.application.outbox.RelaySettings;
import dev.bookstore.ordering.application.port.in.RelayOutboxUseCase;
import dev.bookstore.ordering.application.port.out.RelayMetrics;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore.Row;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore.Status;
import dev.bookstore.ordering.application.testing.MutableClock;
import dev.bookstore.ordering.application.testing.OutboxMessages;
import dev.bookstore.ordering.application.testing.ScriptedMessagePublisher;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The relay policy, driven through {@link OrderingUseCases#relayOutbox} against in-memory fakes of its ports. */
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
            assertThat(outbox.stats().pending()).isZero();
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
            RelayOutboxUseCase second = OrderingUseCases.relayOutbox(outbox, broker,
                    settings("relay-2", 2, 3, false), clock);
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
            assertThat(outbox.stats().parked()).isEqualTo(1);
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

            for (int round = 0; round < 5; round++) {
                assertThat(relay.relayBatch()).isEqualTo(new RelayRound(3, 0, 0, 0, 3));
                assertThat(outbox.rows()).allSatisfy(row -> {
                    assertThat(row.status()).isEqualTo(Status.PENDING);
                    assertThat(row.attempts()).isZero();
                    assertThat(row.nextAttemptAt()).isNull();
                    assertThat(row.claimedBy()).isNull();
                });
                clock.advance(Duration.ofSeconds(1));
            }

            broker.brokerUp();
            assertThat(relay.relayBatch()).isEqualTo(new RelayRound(3, 3, 0, 0, 0));
            assertThat(broker.deliveredIds()).containsExactlyElementsOf(
                    messages.stream().map(OutboxMessage::id).toList());
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
            return OrderingUseCases.relayOutbox(outbox, broker, settings(OWNER, 10, maxAttempts, false), clock,
                    recording);
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
        return OrderingUseCases.relayOutbox(outbox, broker, settings(OWNER, batchSize, maxAttempts, ordered), clock);
    }

    private static RelaySettings settings(String owner, int batchSize, int maxAttempts, boolean ordered) {
        return new RelaySettings(owner, batchSize, LEASE, CONFIRM_TIMEOUT, maxAttempts,
                Backoff.exponential(INITIAL_BACKOFF, MAX_BACKOFF), ordered);
    }
}
