package dev.bookstore.ordering.application.outbox;

import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.Map;

/**
 * A domain event as the wire contract names it: its message type, the exchange and routing key it is published
 * with, and its serialized body. The identity, aggregate and time come from the event itself and the headers from
 * the caller: {@link #toOutboxMessage} puts them together, and the {@link OutboxMessage} it makes checks that
 * every part is there.
 *
 * @param aggregateType the kind of aggregate the event belongs to, as consumers know it (e.g. {@code order})
 */
public record ExternalizedEvent(String aggregateType, String type, String exchange, String routingKey,
                                String payload) {

    /**
     * The outbox message of {@code event}: the event's id (also the AMQP {@code message_id}), aggregate id and
     * time, this contract's names and body, {@code headers}, and no attempt yet.
     */
    public OutboxMessage toOutboxMessage(DomainEvent event, Map<String, String> headers) {
        return new OutboxMessage(event.eventId(), aggregateType, event.aggregateId().toString(), type, exchange,
                routingKey, payload, headers, event.occurredAt(), 0);
    }
}
