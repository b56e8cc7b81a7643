package dev.bookstore.ordering.application.port.out;

import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.List;

/**
 * Hands recorded domain events on, inside the caller's transaction: to in-process listeners, and as an outbox
 * message for every event that leaves the service. If the transaction rolls back, none of it happened.
 */
public interface DomainEventPublisher {

    void publish(List<DomainEvent> events);
}
