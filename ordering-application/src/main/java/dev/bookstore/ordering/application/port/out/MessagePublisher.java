package dev.bookstore.ordering.application.port.out;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.PublishResult;
import java.time.Duration;
import java.util.List;

/**
 * Sends outbox messages to the broker. A whole batch is put in flight before any confirm is awaited; the call
 * returns when every message has an outcome or the deadline passed. It never throws for a delivery problem:
 * each message gets a {@link PublishResult}, in the order of the batch.
 */
public interface MessagePublisher {

    List<PublishResult> publish(List<OutboxMessage> batch, Duration confirmTimeout);
}
