package dev.bookstore.ordering.domain.shared;

import java.time.Instant;
import java.util.UUID;

/**
 * Something that happened to an aggregate. The {@link #eventId()} is made once, when the event is raised,
 * and travels unchanged to every consumer (it becomes the outbox row id and the AMQP {@code message_id}),
 * so that consumers can drop redeliveries.
 */
public interface DomainEvent {

    UUID eventId();

    Instant occurredAt();

    /** The id of the aggregate that raised the event; events of one aggregate are ordered by it. */
    UUID aggregateId();
}
