package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.capture.CapturedRound;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesUseCase;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Hands each batch of routed records to the CDC relay's use case and commits the engine's offsets only past what
 * it settled (confirmed or parked). The rest of the batch is held here, in order, and offered again after the
 * use case's delay: the stream does not move on past an unconfirmed message. A stop ends the wait and leaves the
 * rest uncommitted, to be read again by the next reader.
 */
final class CapturedMessagesConsumer implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {

    private static final System.Logger LOG = System.getLogger(CapturedMessagesConsumer.class.getName());

    private final RelayCapturedMessagesUseCase relay;
    private final CountDownLatch stopped = new CountDownLatch(1);

    CapturedMessagesConsumer(RelayCapturedMessagesUseCase relay) {
        this.relay = relay;
    }

    void stop() {
        stopped.countDown();
    }

    private boolean stopping() {
        return stopped.getCount() == 0;
    }

    @Override
    public void handleBatch(List<RecordChangeEvent<SourceRecord>> records,
                            DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
            throws InterruptedException {
        List<Optional<OutboxMessage>> messages = records.stream()
                .map(record -> CapturedRecords.message(record.record())).toList();
        int next = 0;
        while (next < records.size()) {
            List<OutboxMessage> pending = new ArrayList<>();
            List<Integer> indexes = new ArrayList<>();
            for (int i = next; i < records.size(); i++) {
                if (messages.get(i).isPresent()) {
                    pending.add(messages.get(i).get());
                    indexes.add(i);
                }
            }
            CapturedRound round = pending.isEmpty() ? null : relay.relay(pending, this::stopping);
            int settled = round == null ? 0 : round.settled();
            // Up to the first unsettled message; records that carry no message are settled where they stand.
            int end = settled == pending.size() ? records.size() : indexes.get(settled);
            if (end > next) {
                for (int i = next; i < end; i++) {
                    committer.markProcessed(records.get(i));
                }
                committer.markBatchFinished();
                next = end;
            }
            if (next < records.size()) {
                LOG.log(System.Logger.Level.WARNING, "Outbox message {0} not delivered ({1}); the change stream "
                        + "waits {2} and offers it again", pending.get(settled).id(), round.reason(),
                        round.retryAfter());
                if (stopped.await(round.retryAfter().toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new InterruptedException("the CDC relay stops; unconfirmed changes are read again later");
                }
            }
        }
    }
}
