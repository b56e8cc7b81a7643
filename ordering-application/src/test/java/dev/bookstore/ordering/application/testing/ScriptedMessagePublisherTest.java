package dev.bookstore.ordering.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptedMessagePublisherTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Instant NOW = Instant.parse("2025-03-14T09:00:00Z");

    private final ScriptedMessagePublisher broker = new ScriptedMessagePublisher();
    private final OutboxMessage a = OutboxMessages.orderPlaced("order-a", NOW);
    private final OutboxMessage b = OutboxMessages.orderPlaced("order-b", NOW.plusMillis(1));

    @Test
    void confirmsEveryMessageInBatchOrderUnlessScripted() {
        List<PublishResult> results = broker.publish(List.of(b, a), TIMEOUT);

        assertThat(results).extracting(PublishResult::messageId).containsExactly(b.id(), a.id());
        assertThat(results).extracting(PublishResult::outcome).containsOnly(Outcome.CONFIRMED);
        assertThat(broker.deliveredIds()).containsExactly(b.id(), a.id());
    }

    @Test
    void aPoisonMessageClosesTheChannelForItselfAndEverythingAfterItInTheCall() {
        OutboxMessage c = OutboxMessages.orderPlaced("c", Instant.parse("2025-03-14T09:00:02Z"));
        broker.poison(b.id());

        List<PublishResult> results = broker.publish(List.of(a, b, c), TIMEOUT);

        assertThat(results).extracting(PublishResult::outcome)
                .containsExactly(Outcome.CONFIRMED, Outcome.CHANNEL_CLOSED, Outcome.CHANNEL_CLOSED);
        assertThat(broker.publish(List.of(c), TIMEOUT)).extracting(PublishResult::outcome)
                .containsExactly(Outcome.CONFIRMED);
    }

    @Test
    void aStandingAnswerHoldsForEveryPublishOfTheMessage() {
        broker.answer(a.id(), Outcome.RETURNED);

        broker.publish(List.of(a, b), TIMEOUT);
        List<PublishResult> again = broker.publish(List.of(a), TIMEOUT);

        assertThat(again).extracting(PublishResult::outcome).containsExactly(Outcome.RETURNED);
        assertThat(broker.deliveredIds()).containsExactly(b.id());
        assertThat(broker.attemptsOf(a.id())).isEqualTo(2);
    }

    @Test
    void answersOnceAreUsedUpInOrderBeforeTheStandingAnswer() {
        broker.answer(a.id(), Outcome.NACKED).answerOnce(a.id(), Outcome.TIMED_OUT, Outcome.RETURNED);

        assertThat(outcomesOfPublishing(a)).containsExactly(Outcome.TIMED_OUT);
        assertThat(outcomesOfPublishing(a)).containsExactly(Outcome.RETURNED);
        assertThat(outcomesOfPublishing(a)).containsExactly(Outcome.NACKED);
    }

    @Test
    void anUnavailableBrokerAnswersEveryMessageOfTheCallAndUsesUpNoScript() {
        broker.answerOnce(a.id(), Outcome.RETURNED).brokerUnavailableForNextCalls(1);

        assertThat(outcomesOfPublishing(a, b)).containsOnly(Outcome.BROKER_UNAVAILABLE);
        assertThat(outcomesOfPublishing(a, b)).containsExactly(Outcome.RETURNED, Outcome.CONFIRMED);
    }

    @Test
    void aDownBrokerStaysDownUntilItIsUp() {
        broker.brokerDown();

        assertThat(outcomesOfPublishing(a)).containsExactly(Outcome.BROKER_UNAVAILABLE);
        assertThat(outcomesOfPublishing(a)).containsExactly(Outcome.BROKER_UNAVAILABLE);
        broker.brokerUp();
        assertThat(outcomesOfPublishing(a)).containsExactly(Outcome.CONFIRMED);
    }

    @Test
    void remembersEveryBatchAndTimeout() {
        broker.publish(List.of(a, b), TIMEOUT);
        broker.publish(List.of(b), Duration.ofSeconds(1));

        assertThat(broker.batchIds()).containsExactly(List.of(a.id(), b.id()), List.of(b.id()));
        assertThat(broker.confirmTimeouts()).containsExactly(TIMEOUT, Duration.ofSeconds(1));
        assertThat(broker.calls()).isEqualTo(2);
    }

    @Test
    void runsTheActionOfTheNextPublishOnceWithItsBatch() {
        List<List<OutboxMessage>> seen = new ArrayList<>();
        broker.beforeNextPublish(seen::add);

        broker.publish(List.of(a), TIMEOUT);
        broker.publish(List.of(b), TIMEOUT);

        assertThat(seen).containsExactly(List.of(a));
    }

    private List<Outcome> outcomesOfPublishing(OutboxMessage... batch) {
        return broker.publish(List.of(batch), TIMEOUT).stream().map(PublishResult::outcome).toList();
    }
}
