package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.capture.CapturedRound;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesUseCase;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Takes the engine's records as the log hands them over and relays their messages on a sender thread of its own,
 * so the engine reads on while the broker confirms. The sender takes everything that arrived since its last round
 * as its next round (up to {@value #MAX_ROUND}): a quiet stream sends each message at once, a backlog goes in large
 * rounds. The engine's offsets move only past what the sender settled (confirmed or parked); records that carry no
 * message (heartbeats) are settled once everything before them is.
 *
 * <p>A round the use case does not settle whole is offered again, from its first unsettled message on, after the
 * use case's delay; what arrived meanwhile waits behind it, so nothing passes an earlier message of its aggregate.
 * At most {@value #MAX_QUEUED} messages wait for the sender; the engine waits beyond that. A stop lets the sender
 * finish its round (no new wave is sent) and leaves the rest unmarked, to be read again by the next reader.
 */
final class CapturedMessagesConsumer implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {

    static final int MAX_ROUND = 2048;
    static final int MAX_QUEUED = 8192;
    private static final Duration SENDER_STOP_TIMEOUT = Duration.ofSeconds(30);

    private static final System.Logger LOG = System.getLogger(CapturedMessagesConsumer.class.getName());

    /** A record of the stream and its message, if it carries one. */
    private static final class Entry {
        final RecordChangeEvent<SourceRecord> record;
        final OutboxMessage message;
        boolean settled;

        Entry(RecordChangeEvent<SourceRecord> record, OutboxMessage message) {
            this.record = record;
            this.message = message;
        }
    }

    private final RelayCapturedMessagesUseCase relay;
    private final Thread sender;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final Condition room = lock.newCondition();
    private final Condition stoppedSignal = lock.newCondition();
    /** Every record not yet marked processed, in log order. */
    private final Deque<Entry> unmarked = new ArrayDeque<>();
    /** Messages handed to the sender and not yet taken into a round, in log order. */
    private final Deque<Entry> queued = new ArrayDeque<>();
    private DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer;
    private volatile boolean stopped;
    private volatile RuntimeException senderFailure;

    CapturedMessagesConsumer(RelayCapturedMessagesUseCase relay) {
        this.relay = relay;
        this.sender = new Thread(this::sendRounds, "ordering-cdc-sender");
        this.sender.setDaemon(true);
        this.sender.start();
    }

    /** Stops the sender after its current round and waits for it; what it settled is marked, the rest is not. */
    void stop() {
        lock.lock();
        try {
            stopped = true;
            arrived.signalAll();
            room.signalAll();
            stoppedSignal.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            sender.join(SENDER_STOP_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean stopping() {
        return stopped;
    }

    /**
     * Queues the records' messages for the sender and marks what is settled. Once the relay stops, records are
     * ignored: they stay unmarked and are read again by the next reader.
     *
     * @throws IllegalStateException when the sender failed: the engine ends and starts again from the last
     *                               committed offset
     */
    @Override
    public void handleBatch(List<RecordChangeEvent<SourceRecord>> records,
                            DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
            throws InterruptedException {
        lock.lock();
        try {
            this.committer = committer;
            for (RecordChangeEvent<SourceRecord> record : records) {
                Entry entry = new Entry(record, CapturedRecords.message(record.record()).orElse(null));
                while (entry.message != null && queued.size() >= MAX_QUEUED && !stopped && senderFailure == null) {
                    room.await();
                }
                if (senderFailure != null) {
                    throw new IllegalStateException("relaying captured messages failed; the stream starts again "
                            + "from the last committed offset", senderFailure);
                }
                if (stopped) {
                    return;
                }
                if (entry.message != null) {
                    queued.add(entry);
                    arrived.signal();
                }
                unmarked.add(entry);
            }
            markSettled();
            committer.markBatchFinished();
        } finally {
            lock.unlock();
        }
    }

    /** Marks processed every record from the oldest on that is settled or carries no message. Holds the lock. */
    private void markSettled() throws InterruptedException {
        while (!unmarked.isEmpty() && (unmarked.peekFirst().message == null || unmarked.peekFirst().settled)) {
            committer.markProcessed(unmarked.pollFirst().record);
        }
    }

    private void sendRounds() {
        List<Entry> round = new ArrayList<>();
        try {
            while (true) {
                lock.lock();
                try {
                    while (!stopped && round.isEmpty() && queued.isEmpty()) {
                        arrived.await();
                    }
                    if (stopped) {
                        return;
                    }
                    while (round.size() < MAX_ROUND && !queued.isEmpty()) {
                        round.add(queued.pollFirst());
                    }
                    room.signalAll();
                } finally {
                    lock.unlock();
                }
                CapturedRound result = relay.relay(round.stream().map(entry -> entry.message).toList(),
                        this::stopping);
                int settled = result.settled();
                lock.lock();
                try {
                    for (int i = 0; i < settled; i++) {
                        round.get(i).settled = true;
                    }
                    markSettled();
                    round.subList(0, settled).clear();
                    if (!round.isEmpty() && !stopped) {
                        LOG.log(System.Logger.Level.WARNING, "Outbox message {0} not delivered ({1}); the change "
                                + "stream waits {2} and offers it again", round.get(0).message.id(),
                                result.reason(), result.retryAfter());
                        stoppedSignal.await(result.retryAfter().toMillis(), TimeUnit.MILLISECONDS);
                    }
                } finally {
                    lock.unlock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Relaying captured messages failed: {0}", e.toString());
            lock.lock();
            try {
                senderFailure = e;
                room.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
