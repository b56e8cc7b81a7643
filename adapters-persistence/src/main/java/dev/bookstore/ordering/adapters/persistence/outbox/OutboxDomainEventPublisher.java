package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.application.port.out.DomainEventPublisher;
import dev.bookstore.ordering.application.port.out.EventExternalizer;
import dev.bookstore.ordering.application.port.out.OutboxStore;
import dev.bookstore.ordering.application.port.out.TraceContext;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.List;
import java.util.Map;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@link DomainEventPublisher} inside the caller's transaction: every event goes to Spring's event bus (where
 * Spring Modulith's JPA registry records it for in-process {@code @ApplicationModuleListener}s), and every
 * event that leaves the service becomes an outbox row. After the transaction commits, and only then, the
 * {@link OutboxCommitListener}s are told (they wake this instance's relay and notify the others). A rollback
 * leaves no row and wakes nobody.
 *
 * <p>Nothing here sends a {@code NOTIFY} inside the order's transaction: PostgreSQL queues notifications under
 * one global lock taken at commit, so a transactional {@code NOTIFY} in every order would make all order
 * commits wait for each other ({@link PostgresOutboxNotifier} sends one after commit, coalesced).
 */
@Component
class OutboxDomainEventPublisher implements DomainEventPublisher {

    private final ApplicationEventPublisher springEvents;
    private final EventExternalizer externalizer;
    private final OutboxStore outbox;
    private final TraceContext traceContext;
    private final List<OutboxCommitListener> commitListeners;

    OutboxDomainEventPublisher(ApplicationEventPublisher springEvents, EventExternalizer externalizer,
                               JdbcOutboxStore outbox, TraceContext traceContext,
                               List<OutboxCommitListener> commitListeners) {
        this.springEvents = springEvents;
        this.externalizer = externalizer;
        this.outbox = outbox;
        this.traceContext = traceContext;
        this.commitListeners = List.copyOf(commitListeners);
    }

    @Override
    public void publish(List<DomainEvent> events) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("Domain events must be published inside the transaction that saved "
                    + "the aggregate; otherwise the outbox row could outlive or miss the change");
        }
        Map<String, String> headers = traceContext.currentHeaders();
        int appended = 0;
        for (DomainEvent event : events) {
            springEvents.publishEvent(event);
            var message = externalizer.externalize(event, headers);
            if (message.isPresent()) {
                outbox.append(message.get());
                appended++;
            }
        }
        if (appended > 0 && !commitListeners.isEmpty()) {
            int committed = appended;
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    commitListeners.forEach(listener -> listener.outboxMessagesCommitted(committed));
                }
            });
        }
    }
}
