package dev.bookstore.ordering.application.outbox.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.Backoff;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.RelaySettings.Unroutable;
import dev.bookstore.ordering.application.testing.OutboxMessages;
import dev.bookstore.ordering.application.testing.ScriptedMessagePublisher;
import dev.bookstore.ordering.application.outbox.relay.RelayMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The CDC relay's policy on sequences of captured messages and what the broker answers. */
class RelayCapturedMessagesServiceTest {

    private static final Duration BROKER_RETRY = Duration.ofMillis(200);

    private final ScriptedMessagePublisher broker = new ScriptedMessagePublisher();
    private final List<String> parked = new ArrayList<>();
    private final List<String> metered = new ArrayList<>();
    private final RelayMetrics metrics = new RelayMetrics() {
        @Override
        public void published(OutboxMessage message, Duration publishToConfirm, Duration occurredToConfirm) {
            metered.add("published " + message.aggregateId());
        }

        @Override
        public void failed(OutboxMessage message, Outcome reason, boolean charged) {
            metered.add(reason + (charged ? " charged " : " not charged ") + message.aggregateId());
        }

        @Override
        public void parked(OutboxMessage message) {
            metered.add("parked " + message.aggregateId());
        }
    };
    /** The outbox rows' attempts, as the database keeps them for every reader; a message without a row has none. */
    private final Map<UUID, Integer> rowAttempts = new HashMap<>();
    private final CapturedMessageParking rows = new CapturedMessageParking() {
        @Override
        public OptionalInt recordFailure(OutboxMessage message, String error) {
            return rowAttempts.containsKey(message.id())
                    ? OptionalInt.of(rowAttempts.merge(message.id(), 1, Integer::sum)) : OptionalInt.empty();
        }

        @Override
        public Parked park(OutboxMessage message, int attempts, String error) {
            if (resent.contains(message.id())) {
                return Parked.LEFT_TO_NEWER_ROW;
            }
            parked.add(message.id() + " after " + attempts + ": " + error);
            return Parked.ROW;
        }

        @Override
        public void parkUnreadable(UnreadableChange change) {
            parked.add("unreadable " + change.raw());
        }
    };
    /** Messages an operator sent again: their newer row is queued. */
    private final Set<UUID> resent = new HashSet<>();
    private final RelayCapturedMessagesService relay = relay(3, Unroutable.RETRY);

    private RelayCapturedMessagesService relay(int maxAttempts, Unroutable unroutable) {
        return new RelayCapturedMessagesService(broker, rows,
                new CaptureSettings(Duration.ofSeconds(1), maxAttempts,
                        new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1), () -> 1.0), BROKER_RETRY,
                        unroutable), Clock.systemUTC(), metrics);
    }

    @Test
    void confirmedMessagesAreAllSettled() {
        List<OutboxMessage> messages = List.of(message("a", 0), message("b", 1), message("c", 2));

        CapturedRound round = relay.relay(messages, () -> false);

        assertThat(round.settled()).isEqualTo(3);
        assertThat(broker.deliveredIds()).containsExactlyElementsOf(ids(messages));
    }

    @Test
    void twoMessagesOfOneAggregateAreNeverInFlightTogether() {
        List<OutboxMessage> messages = List.of(message("a", 0), message("b", 1), message("a", 2), message("c", 3));

        relay.relay(messages, () -> false);

        assertThat(broker.batchIds()).containsExactly(ids(messages.subList(0, 2)), ids(messages.subList(2, 4)));
    }

    @Test
    void aNackStopsTheRoundAtTheMessageSoNothingLaterOfItsAggregateLeavesBeforeIt() {
        OutboxMessage first = message("a", 0);
        OutboxMessage refused = message("b", 1);
        OutboxMessage sameAggregateLater = message("b", 2);
        broker.answerOnce(refused.id(), Outcome.NACKED);

        CapturedRound round = relay.relay(List.of(first, refused, sameAggregateLater), () -> false);

        assertThat(round.settled()).isEqualTo(1);
        assertThat(round.retryAfter()).isEqualTo(Duration.ofSeconds(1));
        assertThat(round.reason()).startsWith("NACKED");
        assertThat(broker.deliveredIds()).containsExactly(first.id());
        assertThat(broker.batchIds()).hasSize(1);

        CapturedRound retried = relay.relay(List.of(refused, sameAggregateLater), () -> false);

        assertThat(retried.settled()).isEqualTo(2);
        assertThat(broker.deliveredIds()).containsExactly(first.id(), refused.id(), sameAggregateLater.id());
    }

    @Test
    void aMessageThatNeverGoesThroughIsParkedAfterMaxAttemptsAndNoLongerBlocks() {
        // No row kept for it here: counted in memory, as for a row that is gone.
        OutboxMessage poison = message("a", 0);
        OutboxMessage next = message("b", 1);
        broker.answer(poison.id(), Outcome.RETURNED);

        assertThat(relay.relay(List.of(poison, next), () -> false).settled()).isZero();
        assertThat(relay.relay(List.of(poison, next), () -> false).retryAfter()).isEqualTo(Duration.ofSeconds(2));
        CapturedRound third = relay.relay(List.of(poison, next), () -> false);

        assertThat(third.settled()).isEqualTo(2);
        assertThat(parked).singleElement().asString().startsWith(poison.id() + " after 3: RETURNED");
        assertThat(metered).as("the relay's counters hear of every outcome").containsExactly(
                "RETURNED charged a", "RETURNED charged a", "RETURNED charged a", "parked a", "published b");
        assertThat(broker.deliveredIds()).contains(next.id()).doesNotContain(poison.id());
    }

    @Test
    void aReaderThatTakesOverGoesOnCountingTheAttemptsKeptOnTheRow() {
        OutboxMessage poison = message("a", 0);
        rowAttempts.put(poison.id(), 0);
        broker.answer(poison.id(), Outcome.NACKED);

        assertThat(relay.relay(List.of(poison), () -> false).settled()).isZero();
        assertThat(relay.relay(List.of(poison), () -> false).settled()).isZero();
        RelayCapturedMessagesService nextReader = relay(3, Unroutable.RETRY);

        assertThat(nextReader.relay(List.of(poison), () -> false).settled()).isEqualTo(1);
        assertThat(rowAttempts).containsEntry(poison.id(), 3);
        assertThat(parked).singleElement().asString().startsWith(poison.id() + " after 3: NACKED");
    }

    @Test
    void aMessageSentAgainWhileItFailedIsLeftToItsNewerRowAndNeverCountedAsParked() {
        OutboxMessage poison = message("a", 0);
        broker.answer(poison.id(), Outcome.NACKED);
        resent.add(poison.id());
        RelayCapturedMessagesService parksAtOnce = relay(1, Unroutable.RETRY);

        CapturedRound round = parksAtOnce.relay(List.of(poison), () -> false);

        assertThat(round.settled()).as("the stream moves on: the newer row is read on its own").isEqualTo(1);
        assertThat(parked).isEmpty();
        assertThat(metered).containsExactly("NACKED charged a");
    }

    @Test
    void anUnavailableBrokerChargesNobodyAndIsTriedAgainSoon() {
        OutboxMessage message = message("a", 0);
        broker.brokerUnavailableForNextCalls(5);

        for (int i = 0; i < 5; i++) {
            CapturedRound round = relay(1, Unroutable.RETRY).relay(List.of(message), () -> false);
            assertThat(round.settled()).isZero();
            assertThat(round.retryAfter()).isEqualTo(BROKER_RETRY);
        }

        assertThat(parked).isEmpty();
        assertThat(metered).containsOnly("BROKER_UNAVAILABLE not charged a");
        assertThat(relay.relay(List.of(message), () -> false).settled()).isEqualTo(1);
    }

    @Test
    void unroutableMessagesFollowTheUnroutableSetting() {
        OutboxMessage unroutable = message("a", 0);
        broker.answer(unroutable.id(), Outcome.RETURNED);

        assertThat(relay(10, Unroutable.PUBLISH).relay(List.of(unroutable), () -> false).settled()).isEqualTo(1);
        assertThat(parked).isEmpty();
        assertThat(relay(10, Unroutable.PARK).relay(List.of(unroutable), () -> false).settled()).isEqualTo(1);
        assertThat(parked).singleElement().asString().contains("after 1: RETURNED");
    }

    @Test
    void aStoppingCallerGetsNothingSentAndNothingSettled() {
        CapturedRound round = relay.relay(List.of(message("a", 0)), () -> true);

        assertThat(round.settled()).isZero();
        assertThat(broker.calls()).isZero();
    }

    private static OutboxMessage message(String aggregate, int second) {
        return OutboxMessages.orderPlaced(aggregate, Instant.parse("2026-01-01T00:00:00Z").plusSeconds(second));
    }

    private static List<UUID> ids(List<OutboxMessage> messages) {
        return messages.stream().map(OutboxMessage::id).toList();
    }
}
