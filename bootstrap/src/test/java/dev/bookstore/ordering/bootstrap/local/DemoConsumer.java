package dev.bookstore.ordering.bootstrap.local;

import dev.bookstore.ordering.consumer.OrderPlacedPayload;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The other end of the pattern, in the try-out run: a downstream service that receives every
 * {@code OrderPlaced} once (its inbox drops redeliveries) and logs it. It remembers the last orders it saw, so
 * the outbox page and the tests can tell that a message made it all the way.
 */
public final class DemoConsumer {

    /** The consumer's name in the inbox table. */
    public static final String NAME = "demo-consumer";

    private static final Logger LOG = LoggerFactory.getLogger(DemoConsumer.class);
    private static final int REMEMBERED = 1000;

    private final AtomicLong received = new AtomicLong();
    private final Deque<UUID> recent = new ArrayDeque<>();

    /** Handles one first delivery, inside the inbox transaction; the in-memory record follows the commit. */
    void handle(OrderPlacedPayload order) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    record(order);
                }
            });
        } else {
            record(order);
        }
    }

    private void record(OrderPlacedPayload order) {
        received.incrementAndGet();
        synchronized (recent) {
            recent.addFirst(order.orderId());
            if (recent.size() > REMEMBERED) {
                recent.removeLast();
            }
        }
        LOG.info("Demo consumer received OrderPlaced {}: {} item(s), total {} {}", order.orderId(),
                order.items().size(), order.total().toPlainString(), order.currency().getCurrencyCode());
    }

    /** Orders received since start (first deliveries only). */
    public long received() {
        return received.get();
    }

    /** The ids of the last orders received, newest first. */
    public List<UUID> recentOrderIds() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }
}
