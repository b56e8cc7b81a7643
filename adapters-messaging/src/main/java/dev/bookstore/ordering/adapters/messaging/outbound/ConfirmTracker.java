package dev.bookstore.ordering.adapters.messaging.outbound;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The confirm bookkeeping of one round: the messages published on one confirm-mode channel, and what the broker
 * answered for each. Plain Java, no client types: the channel I/O ({@link PublishingRound}) feeds it the publish
 * sequence numbers it notes before each publish and the acks, nacks, returns and the close its listeners receive.
 *
 * <p>Messages are named by their <em>slot</em>, 0 .. size − 1. An ack or nack settles one sequence number or, with
 * {@code multiple}, every one up to its tag; tags it does not know (late confirms of an earlier round on the same
 * channel) are ignored. A return is matched by {@code message_id}; RabbitMQ sends it before the ack of the same
 * publish and the client calls the listeners in frame order, so the return is noted when the ack settles the
 * message, which then counts as {@link Answer#RETURNED}. The close wakes the waiting thread at once and remembers
 * which slot was published last before it.
 *
 * <p>Thread-safe: the publishing thread registers and waits, the connection's thread settles.
 */
final class ConfirmTracker {

    /** What the broker said about one slot, as far as it is known. */
    enum Answer {
        /** Never handed to the channel. */
        NOT_SENT,
        /** Sent; no ack or nack (yet). */
        UNANSWERED,
        ACKED,
        NACKED,
        /** Returned ({@code basic.return}) and then acked: no queue took it. */
        RETURNED
    }

    private final Lock lock = new ReentrantLock();
    /** Signalled when the last published message is settled, and when the channel closes. */
    private final Condition settled = lock.newCondition();
    /** Registered and not yet acked or nacked: publish sequence number → slot. */
    private final NavigableMap<Long, Integer> unsettled = new TreeMap<>();
    private final Map<String, Integer> byMessageId = new HashMap<>();
    private final boolean[] sent;
    private final boolean[] acked;
    private final boolean[] nacked;
    private final String[] returned;
    private ChannelClosure closure;
    /** The slot handed to the channel last; at the close, the one whose publish preceded it. */
    private int lastSent = -1;
    /** The slot whose publish call has not returned yet, or −1. */
    private int publishing = -1;
    private int lastSentBeforeClose = -1;

    ConfirmTracker(int size) {
        sent = new boolean[size];
        acked = new boolean[size];
        nacked = new boolean[size];
        returned = new String[size];
    }

    /** Before the publish of {@code slot}: its ack can arrive before the publish call returns. */
    void publishing(int slot, long sequenceNumber, String messageId) {
        lock.lock();
        try {
            unsettled.put(sequenceNumber, slot);
            byMessageId.put(messageId, slot);
            publishing = slot;
        } finally {
            lock.unlock();
        }
    }

    /** The publish of {@code slot} went out. */
    void sent(int slot) {
        lock.lock();
        try {
            sent[slot] = true;
            lastSent = slot;
            publishing = -1;
        } finally {
            lock.unlock();
        }
    }

    /** The publish with this sequence number failed on the client: no answer will come for it. */
    void notSent(long sequenceNumber) {
        lock.lock();
        try {
            unsettled.remove(sequenceNumber);
            publishing = -1;
            signalIfSettled();
        } finally {
            lock.unlock();
        }
    }

    void ack(long deliveryTag, boolean multiple) {
        settle(deliveryTag, multiple, acked);
    }

    void nack(long deliveryTag, boolean multiple) {
        settle(deliveryTag, multiple, nacked);
    }

    /** A {@code basic.return} for the message with this {@code message_id}; unknown ids are ignored. */
    void returned(String messageId, String detail) {
        lock.lock();
        try {
            Integer slot = messageId == null ? null : byMessageId.get(messageId);
            if (slot != null) {
                returned[slot] = detail;
            }
        } finally {
            lock.unlock();
        }
    }

    /** The channel or its connection closed: whatever is unsettled now will never be confirmed. The first wins. */
    void closed(ChannelClosure cause) {
        lock.lock();
        try {
            if (closure == null) {
                closure = cause;
                // the broker can refuse a frame and close before its publish call returns: with nothing sent
                // before, that publish is the one to blame
                lastSentBeforeClose = lastSent >= 0 ? lastSent : publishing;
            }
            settled.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every registered message is settled or the channel closed (true), or {@code System.nanoTime()}
     * reaches {@code deadline} or the thread is interrupted (false; the interrupt flag is kept).
     */
    boolean awaitSettled(long deadline) {
        lock.lock();
        try {
            while (!unsettled.isEmpty() && closure == null) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                settled.await(remaining, TimeUnit.NANOSECONDS);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** The answer for {@code slot} so far. */
    Answer answer(int slot) {
        lock.lock();
        try {
            if (!sent[slot]) {
                return Answer.NOT_SENT;
            }
            if (nacked[slot]) {
                return Answer.NACKED;
            }
            if (acked[slot]) {
                return returned[slot] != null ? Answer.RETURNED : Answer.ACKED;
            }
            return Answer.UNANSWERED;
        } finally {
            lock.unlock();
        }
    }

    /** The {@code basic.return} detail of {@code slot}, or null. */
    String returnDetail(int slot) {
        return locked(() -> returned[slot]);
    }

    /** Why the channel closed, or null while it is open. */
    ChannelClosure closure() {
        return locked(() -> closure);
    }

    /** The slot published last before the channel closed, or −1 (not closed, or closed before any publish). */
    int lastSentBeforeClose() {
        return locked(() -> lastSentBeforeClose);
    }

    private <T> T locked(Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    private void settle(long deliveryTag, boolean multiple, boolean[] outcome) {
        lock.lock();
        try {
            // a view of unsettled (a single tag not in it gives an empty one; Map.of() could not be cleared)
            Map<Long, Integer> answered = multiple ? unsettled.headMap(deliveryTag, true)
                    : unsettled.subMap(deliveryTag, true, deliveryTag, true);
            for (int slot : answered.values()) {
                outcome[slot] = true;
            }
            answered.clear(); // a view: removes them from unsettled
            signalIfSettled();
        } finally {
            lock.unlock();
        }
    }

    private void signalIfSettled() {
        if (unsettled.isEmpty()) {
            settled.signalAll();
        }
    }
}
