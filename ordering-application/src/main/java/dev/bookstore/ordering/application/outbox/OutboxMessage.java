package dev.bookstore.ordering.application.outbox;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * One message waiting in the outbox: everything the relay needs to publish it, fixed when the row is written.
 * {@link #id()} is the domain event's id and the AMQP {@code message_id}; it never changes, on any retry.
 *
 * @param occurredAt when the event happened, by the clock of the instance that raised it: information only (the
 *                   AMQP {@code timestamp}), never used to order messages or to compare with another clock
 * @param attempts how many deliveries were tried and failed so far (0 for a new message)
 * @param position the place the database gave the row when it was inserted, which is the order of the outbox
 *                 (the claim's, and ordered mode's per aggregate); 0 for a message not stored yet
 */
public record OutboxMessage(
        UUID id,
        String aggregateType,
        String aggregateId,
        String type,
        String exchange,
        String routingKey,
        String payload,
        Map<String, String> headers,
        Instant occurredAt,
        int attempts,
        long position) {

    /** A message not stored yet: the database gives it its position at insert. */
    public OutboxMessage(UUID id, String aggregateType, String aggregateId, String type, String exchange,
                         String routingKey, String payload, Map<String, String> headers, Instant occurredAt,
                         int attempts) {
        this(id, aggregateType, aggregateId, type, exchange, routingKey, payload, headers, occurredAt, attempts, 0);
    }

    public OutboxMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(aggregateType, "aggregateType");
        Objects.requireNonNull(aggregateId, "aggregateId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(exchange, "exchange");
        Objects.requireNonNull(routingKey, "routingKey");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(occurredAt, "occurredAt");
        headers = Map.copyOf(headers);
    }
}
