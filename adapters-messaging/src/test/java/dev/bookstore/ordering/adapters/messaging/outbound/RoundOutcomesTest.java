package dev.bookstore.ordering.adapters.messaging.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which outcome each message gets from what the tracker saw and how the channel closed. */
class RoundOutcomesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private final List<OutboxMessage> batch = TestOutboxMessages.orderPlaced("bookstore.ordering", 4);
    private final List<Integer> all = IntStream.range(0, 4).boxed().toList();
    private final PublishResult[] results = new PublishResult[4];

    private ConfirmTracker sentAll() {
        ConfirmTracker tracker = new ConfirmTracker(4);
        for (int slot = 0; slot < 4; slot++) {
            tracker.publishing(slot, slot + 1, batch.get(slot).id().toString());
            tracker.sent(slot);
        }
        return tracker;
    }

    private List<Outcome> outcomes() {
        return Arrays.stream(results).map(PublishResult::outcome).toList();
    }

    @Test
    void acksReturnsNacksAndMissingConfirmsWithAnOpenChannel() {
        ConfirmTracker tracker = sentAll();
        tracker.ack(1, false);
        tracker.returned(batch.get(1).id().toString(), "312 NO_ROUTE");
        tracker.ack(2, false);
        tracker.nack(3, false);

        List<Integer> resend = RoundOutcomes.decide(batch, all, results, tracker, null, null, TIMEOUT);

        assertThat(resend).isEmpty();
        assertThat(outcomes()).containsExactly(Outcome.CONFIRMED, Outcome.RETURNED, Outcome.NACKED,
                Outcome.TIMED_OUT);
        assertThat(results[1].detail()).isEqualTo("312 NO_ROUTE");
        assertThat(results[3].detail()).contains("PT5S");
    }

    @Test
    void aLostConnectionMakesTheUnansweredOnesBrokerUnavailable() {
        ConfirmTracker tracker = sentAll();
        tracker.ack(2, true);
        tracker.closed(new ChannelClosure(0, true, "connection reset"));

        RoundOutcomes.decide(batch, all, results, tracker, tracker.closure(), null, TIMEOUT);

        assertThat(outcomes()).containsExactly(Outcome.CONFIRMED, Outcome.CONFIRMED, Outcome.BROKER_UNAVAILABLE,
                Outcome.BROKER_UNAVAILABLE);
        assertThat(results[2].detail()).isEqualTo("connection reset");
    }

    @Test
    void aChannelClosedByTheBrokersRefusalMakesTheUnansweredOnesChannelClosedAndNamesTheLastPublished() {
        ConfirmTracker tracker = new ConfirmTracker(4);
        for (int slot = 0; slot < 3; slot++) {
            tracker.publishing(slot, slot + 1, batch.get(slot).id().toString());
            tracker.sent(slot);
        }
        tracker.ack(1, false);
        tracker.closed(new ChannelClosure(406, false, "406 PRECONDITION_FAILED"));

        List<Integer> resend = RoundOutcomes.decide(batch, all, results, tracker, tracker.closure(), null, TIMEOUT);

        assertThat(resend).isEmpty();
        assertThat(outcomes()).containsExactly(Outcome.CONFIRMED, Outcome.CHANNEL_CLOSED, Outcome.CHANNEL_CLOSED,
                Outcome.CHANNEL_CLOSED);
        assertThat(results[2].detail()).startsWith("406 PRECONDITION_FAILED").endsWith(RoundOutcomes.PUBLISHED_LAST);
        assertThat(results[1].detail()).doesNotContain(RoundOutcomes.PUBLISHED_LAST);
        assertThat(results[3].detail()).doesNotContain(RoundOutcomes.PUBLISHED_LAST);
    }

    @Test
    void aChannelClosedOverAMissingExchangeLeavesTheUnansweredOnesToPublishAgain() {
        ConfirmTracker tracker = sentAll();
        tracker.ack(1, false);
        tracker.closed(new ChannelClosure(404, false, "404 NOT_FOUND"));

        List<Integer> resend = RoundOutcomes.decide(batch, all, results, tracker, tracker.closure(), null, TIMEOUT);

        assertThat(resend).containsExactly(1, 2, 3);
        assertThat(results[0].outcome()).isEqualTo(Outcome.CONFIRMED);
        assertThat(results[1]).isNull();
    }

    @Test
    void messagesNotSentBecauseTheRelayStopsAreBrokerUnavailableWithTheReason() {
        ConfirmTracker tracker = new ConfirmTracker(4);
        tracker.publishing(0, 1, batch.get(0).id().toString());
        tracker.sent(0);
        tracker.ack(1, false);
        results[3] = new PublishResult(batch.get(3).id(), Outcome.NACKED, "not sent: refused by the client");

        RoundOutcomes.decide(batch, all, results, tracker, null, "not sent: the relay is stopping", TIMEOUT);

        assertThat(outcomes()).containsExactly(Outcome.CONFIRMED, Outcome.BROKER_UNAVAILABLE,
                Outcome.BROKER_UNAVAILABLE, Outcome.NACKED);
        assertThat(results[1].detail()).isEqualTo("not sent: the relay is stopping");
    }

    @Test
    void whichClosesTheBrokerRefusedSomethingFor() {
        assertThat(new ChannelClosure(406, false, "x").refusedByBroker()).isTrue();
        assertThat(new ChannelClosure(505, true, "x").refusedByBroker()).isTrue(); // unexpected frame
        assertThat(new ChannelClosure(501, true, "x").refusedByBroker()).isTrue(); // frame error
        assertThat(new ChannelClosure(404, false, "x").refusedByBroker()).isFalse();
        assertThat(new ChannelClosure(404, false, "x").missingExchange()).isTrue();
        assertThat(new ChannelClosure(320, true, "x").refusedByBroker()).isFalse(); // broker shutting down
        assertThat(new ChannelClosure(0, true, "x").refusedByBroker()).isFalse();   // connection lost
    }
}
