package dev.bookstore.ordering.application.outbox.relay;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Sends outbox messages to the broker. A whole batch is put in flight before any confirm is awaited; the call
 * returns when every message has an outcome or the deadline passed. It never throws for a delivery problem:
 * each message gets a {@link PublishResult}, in the order of the batch.
 */
public interface MessagePublisher {

    /**
     * Once {@code stopSending} answers true (the relay is stopping), no further message of the batch is handed to the
     * broker (each unsent one is answered {@link PublishResult.Outcome#BROKER_UNAVAILABLE}, "not sent"), while the
     * confirms of those already sent are still awaited until the deadline.
     */
    List<PublishResult> publish(List<OutboxMessage> batch, Duration confirmTimeout, BooleanSupplier stopSending);

    /**
     * Whether the broker can be talked to now: a connection is open, or one could be opened just now (a publisher
     * that pools its connection opens it here and keeps it). Cheap while connected; while the broker is away it
     * costs one connection attempt, bounded by the client's connection timeout, and never throws. The relay asks
     * this, instead of claiming rows, while the broker is unavailable, so it notices the broker's return within
     * its probe interval and claims nothing that would only be released again. A publisher that cannot tell
     * answers true.
     */
    default boolean brokerReachable() {
        return true;
    }
}
