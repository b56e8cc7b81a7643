package dev.bookstore.ordering.adapters.modulith;

import dev.bookstore.ordering.application.outbox.DomainEventPublisher;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.List;
import java.util.Objects;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@link DomainEventPublisher} on Spring's event bus, inside the caller's transaction: Spring Modulith's
 * registry records every event for the in-process {@code @ApplicationModuleListener}s in that same transaction.
 * Outside a transaction such a listener would never run, so that is refused.
 */
public final class SpringDomainEventPublisher implements DomainEventPublisher {

    private final ApplicationEventPublisher springEvents;

    public SpringDomainEventPublisher(ApplicationEventPublisher springEvents) {
        this.springEvents = Objects.requireNonNull(springEvents, "springEvents");
    }

    @Override
    public void publish(List<DomainEvent> events) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("Domain events must be published inside the transaction that saved "
                    + "the aggregate; otherwise their listeners could run for a change that never happened");
        }
        events.forEach(springEvents::publishEvent);
    }
}
