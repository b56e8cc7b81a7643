package dev.bookstore.ordering.adapters.messaging.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.messaging.outbound.ConfirmTracker.Answer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The confirm bookkeeping on scripted sequences of broker frames, no broker. */
class ConfirmTrackerTest {

    private static final ChannelClosure PRECONDITION_FAILED =
            new ChannelClosure(406, false, "406 PRECONDITION_FAILED - invalid message");

    /** Slots 0..size-1 published with sequence numbers first, first + 1, ... */
    private static ConfirmTracker published(int size, long first) {
        ConfirmTracker tracker = new ConfirmTracker(size);
        for (int slot = 0; slot < size; slot++) {
            tracker.publishing(slot, first + slot, "m" + slot);
            tracker.sent(slot);
        }
        return tracker;
    }

    @Test
    void singleAcksSettleOnlyTheirOwnMessage() {
        ConfirmTracker tracker = published(3, 1);

        tracker.ack(2, false);

        assertThat(tracker.answer(0)).isEqualTo(Answer.UNANSWERED);
        assertThat(tracker.answer(1)).isEqualTo(Answer.ACKED);
        assertThat(tracker.answer(2)).isEqualTo(Answer.UNANSWERED);
        assertThat(tracker.awaitSettled(System.nanoTime())).isFalse();
    }

    @Test
    void aMultipleAckSettlesEveryMessageUpToItsTagAndNoFurther() {
        ConfirmTracker tracker = published(4, 10);

        tracker.ack(12, true);

        assertThat(tracker.answer(0)).isEqualTo(Answer.ACKED);
        assertThat(tracker.answer(1)).isEqualTo(Answer.ACKED);
        assertThat(tracker.answer(2)).isEqualTo(Answer.ACKED);
        assertThat(tracker.answer(3)).isEqualTo(Answer.UNANSWERED);

        tracker.ack(13, false);
        assertThat(tracker.awaitSettled(System.nanoTime())).isTrue();
    }

    @Test
    void nacksSingleAndMultipleMixWithAcks() {
        ConfirmTracker tracker = published(5, 1);

        tracker.ack(1, false);
        tracker.nack(3, true); // 2 and 3
        tracker.nack(5, false);
        tracker.ack(4, false);

        assertThat(tracker.answer(0)).isEqualTo(Answer.ACKED);
        assertThat(tracker.answer(1)).isEqualTo(Answer.NACKED);
        assertThat(tracker.answer(2)).isEqualTo(Answer.NACKED);
        assertThat(tracker.answer(3)).isEqualTo(Answer.ACKED);
        assertThat(tracker.answer(4)).isEqualTo(Answer.NACKED);
        assertThat(tracker.awaitSettled(System.nanoTime())).isTrue();
    }

    @Test
    void confirmsOfAnEarlierRoundOnTheSameChannelChangeNothing() {
        ConfirmTracker tracker = published(2, 7);

        tracker.ack(6, true);  // late multiple ack for tags 1..6
        tracker.nack(3, false);

        assertThat(tracker.answer(0)).isEqualTo(Answer.UNANSWERED);
        assertThat(tracker.answer(1)).isEqualTo(Answer.UNANSWERED);
    }

    @Test
    void aReturnBeforeTheAckOfTheSamePublishMakesItReturned() {
        ConfirmTracker tracker = published(3, 1);

        tracker.returned("m1", "312 NO_ROUTE");
        tracker.ack(3, true);

        assertThat(tracker.answer(0)).isEqualTo(Answer.ACKED);
        assertThat(tracker.answer(1)).isEqualTo(Answer.RETURNED);
        assertThat(tracker.returnDetail(1)).isEqualTo("312 NO_ROUTE");
        assertThat(tracker.answer(2)).isEqualTo(Answer.ACKED);
    }

    @Test
    void aReturnForAnUnknownMessageIdIsIgnored() {
        ConfirmTracker tracker = published(1, 1);

        tracker.returned("someone-else", "312 NO_ROUTE");
        tracker.returned(null, "312 NO_ROUTE");
        tracker.ack(1, false);

        assertThat(tracker.answer(0)).isEqualTo(Answer.ACKED);
    }

    @Test
    void withoutConfirmsTheWaitEndsAtTheDeadline() {
        ConfirmTracker tracker = published(2, 1);
        tracker.ack(1, false);
        long started = System.nanoTime();

        boolean settled = tracker.awaitSettled(started + Duration.ofMillis(100).toNanos());

        assertThat(settled).isFalse();
        assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
        assertThat(tracker.answer(1)).isEqualTo(Answer.UNANSWERED);
    }

    @Test
    void theLastConfirmWakesTheWaitingThread() throws Exception {
        ConfirmTracker tracker = published(2, 1);
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(
                () -> tracker.awaitSettled(System.nanoTime() + Duration.ofSeconds(30).toNanos()));

        tracker.ack(1, false);
        tracker.ack(2, false);

        assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aCloseWakesTheWaitingThreadAndNamesTheMessagePublishedLastBeforeIt() throws Exception {
        ConfirmTracker tracker = new ConfirmTracker(4);
        for (int slot = 0; slot < 3; slot++) {
            tracker.publishing(slot, slot + 1, "m" + slot);
            tracker.sent(slot);
        }
        tracker.ack(1, false);
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(
                () -> tracker.awaitSettled(System.nanoTime() + Duration.ofSeconds(30).toNanos()));

        tracker.closed(PRECONDITION_FAILED);
        tracker.publishing(3, 4, "m3"); // what the thread still sends after the close does not move the blame
        tracker.sent(3);
        tracker.closed(new ChannelClosure(0, true, "connection lost")); // the first close wins

        assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(tracker.closure()).isEqualTo(PRECONDITION_FAILED);
        assertThat(tracker.lastSentBeforeClose()).isEqualTo(2);
        assertThat(tracker.answer(0)).isEqualTo(Answer.ACKED);
        assertThat(tracker.answer(2)).isEqualTo(Answer.UNANSWERED);
    }

    @Test
    void aPublishThatFailedOnTheClientIsNotSentAndAwaitsNoConfirm() {
        ConfirmTracker tracker = new ConfirmTracker(2);
        tracker.publishing(0, 1, "m0");
        tracker.sent(0);
        tracker.publishing(1, 2, "m1");
        tracker.notSent(2);
        tracker.ack(1, false);

        assertThat(tracker.answer(1)).isEqualTo(Answer.NOT_SENT);
        assertThat(tracker.awaitSettled(System.nanoTime())).isTrue();
    }

    @Test
    void aCloseBeforeTheOnlyPublishReturnedBlamesThatPublish() {
        ConfirmTracker tracker = new ConfirmTracker(1);
        tracker.publishing(0, 1, "m0");

        tracker.closed(PRECONDITION_FAILED); // the connection's thread, while basicPublish has not returned yet
        tracker.sent(0);

        assertThat(tracker.lastSentBeforeClose()).isZero();
        assertThat(tracker.answer(0)).isEqualTo(Answer.UNANSWERED);
    }

    @Test
    void aCloseBeforeAnyPublishBlamesNoMessage() {
        ConfirmTracker tracker = new ConfirmTracker(2);

        tracker.closed(PRECONDITION_FAILED);

        assertThat(tracker.lastSentBeforeClose()).isEqualTo(-1);
        assertThat(tracker.answer(0)).isEqualTo(Answer.NOT_SENT);
    }
}
