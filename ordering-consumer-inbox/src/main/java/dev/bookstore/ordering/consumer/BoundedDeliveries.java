package dev.bookstore.ordering.consumer;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageListener;

/**
 * Bounds the deliveries of a message whose processing fails: a message that breaks the contract goes to the
 * dead-letter queue at once; one whose handler throws is handed back to the broker after a growing wait, and on
 * its {@link InboxQueue#maxDeliveries()}-th delivery goes to the dead-letter queue, with the exception as its
 * reason, and is acked. The delivery number is the larger of the broker's count ({@code x-delivery-count}, set
 * by RabbitMQ quorum queues on every redelivery) and this consumer's own count per {@code message_id} (in memory,
 * for the most recent {@value #TRACKED_IDS} failing ids).
 */
final class BoundedDeliveries implements MessageListener {

    private static final Logger LOG = LoggerFactory.getLogger(BoundedDeliveries.class);
    private static final String BROKER_DELIVERY_COUNT = "x-delivery-count";
    private static final int TRACKED_IDS = 10_000;
    private static final int MAX_REASON_LENGTH = 1_000;

    private final MessageListener listener;
    private final String consumer;
    private final InboxQueue queue;
    private final DeadLetterPublisher deadLetters;
    /** Failed deliveries per message id, the oldest forgotten first. */
    private final Map<String, Integer> failures = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                    return size() > TRACKED_IDS;
                }
            });

    BoundedDeliveries(MessageListener listener, String consumer, InboxQueue queue, DeadLetterPublisher deadLetters) {
        this.listener = listener;
        this.consumer = consumer;
        this.queue = queue;
        this.deadLetters = deadLetters;
    }

    @Override
    public void onMessage(Message message) {
        String id = message.getMessageProperties().getMessageId();
        try {
            listener.onMessage(message);
            forget(id);
        } catch (AmqpRejectAndDontRequeueException e) {
            // the message breaks the contract: another delivery cannot fix it
            forget(id);
            String reason = describe(e);
            LOG.warn("Dead-lettering message {} for {} at once: {}", id, consumer, reason);
            deadLetters.send(message, reason, deliveryNumber(message, 1), consumer);
        } catch (RuntimeException e) {
            int delivery = deliveryNumber(message, id == null ? 1 : failures.merge(id, 1, Integer::sum));
            if (delivery >= queue.maxDeliveries()) {
                String reason = describe(e);
                LOG.warn("Dead-lettering message {} for {} after {} deliveries: {}", id, consumer, delivery, reason);
                deadLetters.send(message, reason, delivery, consumer); // throws if it could not: then redelivered
                forget(id);
                return; // acked
            }
            Duration wait = queue.retryDelayAfter(delivery);
            LOG.info("Message {} failed for {} on delivery {} of {}, handed back in {}: {}", id, consumer, delivery,
                    queue.maxDeliveries(), wait, e.toString());
            pause(wait);
            throw e; // the container hands it back to the broker (requeue)
        }
    }

    private void forget(String id) {
        if (id != null) {
            failures.remove(id);
        }
    }

    /** The larger of {@code ownCount} and the broker's count of this delivery. */
    private static int deliveryNumber(Message message, int ownCount) {
        Object brokerCount = message.getMessageProperties().getHeaders().get(BROKER_DELIVERY_COUNT);
        int broker = brokerCount instanceof Number n ? n.intValue() + 1 : 1;
        return Math.max(ownCount, broker);
    }

    private static void pause(Duration wait) {
        try {
            TimeUnit.NANOSECONDS.sleep(wait.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the container is stopping; the message goes back at once
        }
    }

    static String describe(Throwable e) {
        StringBuilder text = new StringBuilder();
        Set<Throwable> seen = new LinkedHashSet<>();
        for (Throwable cause = e; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (!text.isEmpty()) {
                text.append(" <- ");
            }
            text.append(cause.getClass().getSimpleName());
            if (cause.getMessage() != null) {
                text.append(": ").append(cause.getMessage());
            }
        }
        return text.length() > MAX_REASON_LENGTH ? text.substring(0, MAX_REASON_LENGTH) : text.toString();
    }
}
