package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.capture.CapturedRound;
import dev.bookstore.ordering.application.outbox.capture.ParkUnreadableChangeUseCase;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesUseCase;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Hands each batch of routed records to the CDC relay's use case and commits the engine's offsets only past what
 * it settled (confirmed or parked). The rest of the batch is held here, in order, and offered again after the
 * use case's delay: the stream does not move on past an unconfirmed message. A record that does not parse is parked
 * as read and settled where it stands. Nothing more is published while the offsets of a commit are not written: the
 * commit is tried again every {@link #OFFSET_RETRY}, so a restart sends again only what was sent since the last
 * written commit. A stop ends any wait and leaves the rest uncommitted, to be read again by the next reader.
 */
final class CapturedMessagesConsumer implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {

    private static final System.Logger LOG = System.getLogger(CapturedMessagesConsumer.class.getName());
    /** The engine's offset flush interval: a commit it tries sooner would not be made. */
    static final Duration OFFSET_RETRY = Duration.ofSeconds(1);

    private final RelayCapturedMessagesUseCase relay;
    private final ParkUnreadableChangeUseCase unreadable;
    private final OffsetWrites offsets;
    private final CountDownLatch stopped = new CountDownLatch(1);

    CapturedMessagesConsumer(RelayCapturedMessagesUseCase relay, ParkUnreadableChangeUseCase unreadable,
                             OffsetWrites offsets) {
        this.relay = relay;
        this.unreadable = unreadable;
        this.offsets = offsets;
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
        List<Optional<OutboxMessage>> messages = new ArrayList<>(records.size());
        for (RecordChangeEvent<SourceRecord> record : records) {
            messages.add(read(record.record()));
        }
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
                commit(committer);
                next = end;
            }
            if (next < records.size()) {
                LOG.log(System.Logger.Level.WARNING, "Outbox message {0} not delivered ({1}); the change stream "
                        + "waits {2} and offers it again", pending.get(settled).id(), round.reason(),
                        round.retryAfter());
                await(round.retryAfter());
            }
        }
    }

    /** The record's message; empty for none, and for a record that does not parse, which is parked as read. */
    private Optional<OutboxMessage> read(SourceRecord record) {
        try {
            return CapturedRecords.message(record);
        } catch (RuntimeException e) {
            unreadable.parkUnreadable(CapturedRecords.unreadable(record, e));
            return Optional.empty();
        }
    }

    /** Commits (when the engine's interval is due) and holds the stream until the offsets are written. */
    private void commit(DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
            throws InterruptedException {
        committer.markBatchFinished();
        if (!offsets.unwritten()) {
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "The CDC offsets are not written ({0}); nothing more is published "
                + "until they are, tried again every {1}", offsets.lastError() == null ? "the database does not answer"
                : offsets.lastError(), OFFSET_RETRY);
        while (offsets.unwritten()) {
            await(OFFSET_RETRY);
            committer.markBatchFinished();
        }
        LOG.log(System.Logger.Level.INFO, "The CDC offsets are written again; the change stream goes on");
    }

    private void await(Duration delay) throws InterruptedException {
        if (stopped.await(delay.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new InterruptedException("the CDC relay stops; unconfirmed changes are read again later");
        }
    }
}
