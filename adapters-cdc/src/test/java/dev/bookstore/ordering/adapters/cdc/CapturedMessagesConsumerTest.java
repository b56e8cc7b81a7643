package dev.bookstore.ordering.adapters.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.capture.CapturedRound;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesUseCase;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The consumer between Debezium's engine and the CDC relay's use case: the engine's thread hands records over and
 * returns at once, a sender relays them in rounds, and offsets move only past what the rounds settled, in log order.
 * The use case here answers each round when the test says so.
 */
class CapturedMessagesConsumerTest {

    private static final Duration ROUND_WAIT = Duration.ofSeconds(5);

    private final HeldRelay relay = new HeldRelay();
    private final MarkingCommitter committer = new MarkingCommitter();
    private final CapturedMessagesConsumer consumer = new CapturedMessagesConsumer(relay);

    @AfterEach
    void stop() {
        relay.answers.add(() -> new CapturedRound(0, Duration.ZERO, "test over"));
        consumer.stop();
    }

    @Test
    void theEngineThreadReturnsBeforeTheBrokerAnswersAndTheRecordIsMarkedOnceSettled() throws Exception {
        consumer.handleBatch(List.of(message("m1")), committer);

        assertThat(relay.nextRound()).containsExactly("m1");
        assertThat(committer.marked()).isEmpty();

        relay.settle(1);
        await().atMost(ROUND_WAIT).until(() -> committer.marked().equals(List.of("m1")));
    }

    @Test
    void aHeartbeatIsMarkedOnlyOnceEveryMessageBeforeItIsSettled() throws Exception {
        consumer.handleBatch(List.of(message("m1")), committer);
        consumer.handleBatch(List.of(heartbeat()), committer);

        assertThat(relay.nextRound()).containsExactly("m1");
        assertThat(committer.marked()).isEmpty();

        relay.settle(1);
        await().atMost(ROUND_WAIT).until(() -> committer.marked().equals(List.of("m1", "heartbeat")));
        consumer.handleBatch(List.of(heartbeat()), committer);
        assertThat(committer.marked()).containsExactly("m1", "heartbeat", "heartbeat");
    }

    @Test
    void messagesArrivingDuringARoundGoTogetherInTheNextOne() throws Exception {
        consumer.handleBatch(List.of(message("m1")), committer);
        assertThat(relay.nextRound()).containsExactly("m1");

        consumer.handleBatch(List.of(message("m2")), committer);
        consumer.handleBatch(List.of(message("m3")), committer);
        relay.settle(1);

        assertThat(relay.nextRound()).containsExactly("m2", "m3");
        relay.settle(2);
        await().atMost(ROUND_WAIT).until(() -> committer.marked().equals(List.of("m1", "m2", "m3")));
    }

    @Test
    void anUnsettledMessageIsOfferedAgainAheadOfLaterOnesAndNothingPastItIsMarked() throws Exception {
        consumer.handleBatch(List.of(message("m1"), message("m2")), committer);
        assertThat(relay.nextRound()).containsExactly("m1", "m2");
        consumer.handleBatch(List.of(message("m3"), heartbeat()), committer);

        relay.answers.add(() -> new CapturedRound(1, Duration.ofMillis(20), "NACKED"));

        assertThat(relay.nextRound()).containsExactly("m2", "m3");
        assertThat(committer.marked()).containsExactly("m1");
        relay.settle(2);
        await().atMost(ROUND_WAIT).until(() -> committer.marked().equals(List.of("m1", "m2", "m3", "heartbeat")));
    }

    @Test
    void aFailedRoundEndsTheStreamAtTheNextBatchAndMarksNothingOfIt() throws Exception {
        consumer.handleBatch(List.of(message("m1")), committer);
        assertThat(relay.nextRound()).containsExactly("m1");

        relay.answers.add(() -> {
            throw new IllegalStateException("the parking table is gone");
        });

        await().atMost(ROUND_WAIT).untilAsserted(() ->
                assertThatThrownBy(() -> consumer.handleBatch(List.of(heartbeat()), committer))
                        .isInstanceOf(IllegalStateException.class)
                        .hasRootCauseMessage("the parking table is gone"));
        assertThat(committer.marked()).isEmpty();
    }

    @Test
    void afterAStopRecordsAreNeitherSentNorMarked() throws Exception {
        consumer.stop();

        consumer.handleBatch(List.of(message("m1"), heartbeat()), committer);

        assertThat(relay.rounds.poll(200, TimeUnit.MILLISECONDS)).isNull();
        assertThat(committer.marked()).isEmpty();
    }

    /** A record as the outbox event router hands it on, its aggregate id also its name in the assertions. */
    private static RecordChangeEvent<SourceRecord> message(String name) {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString("message_id", UUID.randomUUID().toString());
        headers.addString("aggregate_type", "Order");
        headers.addString("type", "OrderPlaced");
        headers.addString("exchange", "ordering.events");
        headers.addString("routing_key", "order.placed");
        headers.addString("occurred_at", "2026-12-07T10:15:30.123456Z");
        SourceRecord record = new SourceRecord(Map.of("server", "ordering"), Map.of("lsn", name), "outbox.Order",
                null, null, name, null, "{\"orderId\":\"" + name + "\"}", null, headers);
        return () -> record;
    }

    private static RecordChangeEvent<SourceRecord> heartbeat() {
        SourceRecord record = new SourceRecord(Map.of("server", "ordering"), Map.of("lsn", "heartbeat"),
                "__debezium-heartbeat.ordering", null, null, null, null, null);
        return () -> record;
    }

    /** Hands each round to the test, then waits for the test's answer. */
    private static final class HeldRelay implements RelayCapturedMessagesUseCase {

        final BlockingQueue<List<OutboxMessage>> rounds = new LinkedBlockingQueue<>();
        final BlockingQueue<Supplier<CapturedRound>> answers = new LinkedBlockingQueue<>();

        @Override
        public CapturedRound relay(List<OutboxMessage> messages, BooleanSupplier stopSending) {
            rounds.add(List.copyOf(messages));
            try {
                return answers.take().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new CapturedRound(0, Duration.ZERO, "interrupted");
            }
        }

        List<String> nextRound() throws InterruptedException {
            List<OutboxMessage> round = rounds.poll(ROUND_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(round).as("a round reached the use case").isNotNull();
            return round.stream().map(OutboxMessage::aggregateId).toList();
        }

        void settle(int count) {
            answers.add(() -> new CapturedRound(count, Duration.ZERO, null));
        }
    }

    /** Records what is marked processed: each message by its aggregate id, anything else as a heartbeat. */
    private static final class MarkingCommitter
            implements DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> {

        private final List<String> marked = Collections.synchronizedList(new ArrayList<>());

        List<String> marked() {
            synchronized (marked) {
                return List.copyOf(marked);
            }
        }

        @Override
        public void markProcessed(RecordChangeEvent<SourceRecord> record) {
            marked.add(record.record().key() == null ? "heartbeat" : String.valueOf(record.record().key()));
        }

        @Override
        public void markBatchFinished() {
        }

        @Override
        public void markProcessed(RecordChangeEvent<SourceRecord> record, DebeziumEngine.Offsets sourceOffsets) {
            markProcessed(record);
        }

        @Override
        public DebeziumEngine.Offsets buildOffsets() {
            throw new UnsupportedOperationException("the consumer builds no offsets of its own");
        }
    }
}
