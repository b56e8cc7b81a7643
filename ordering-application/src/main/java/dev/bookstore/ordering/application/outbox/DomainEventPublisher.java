package dev.bookstore.ordering.application.outbox;

import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.List;

/**
 * Hands recorded domain events to the in-process listeners, inside the caller's transaction. Which events also
 * leave the service is decided by {@code EventOutbox}, not here.
 */
public interface DomainEventPublisher {

    void publish(List<DomainEvent> events);
}
