package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.application.port.out.DomainEventPublisher;
import dev.bookstore.ordering.application.port.out.EventExternalizer;
import dev.bookstore.ordering.application.port.out.OutboxStore;
import dev.bookstore.ordering.application.port.out.TraceContext;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.List;
import java.util.Map;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@link DomainEventPublisher} inside the caller's transaction: every event goes to Spring's event bus (where
 * Spring Modulith's JPA registry records it for in-process {@code @ApplicationModuleListener}s), and every
 * event that leaves the service becomes an outbox row. After the transaction commits, and only then, relays
 * are woken: this instance's through {@link OutboxMessagesCommitted}, other instances' through PostgreSQL's
 * transactional {@code NOTIFY}. A rollback leaves no row and wakes nobody.
 */
@Component
class OutboxDomainEventPublisher implements DomainEventPublisher {

    /** The channel relays {@code LISTEN} on. */
    static final String NOTIFY_CHANNEL = "ordering_outbox";

    private final ApplicationEventPublisher springEvents;
    private final EventExternalizer externalizer;
    private final OutboxStore outbox;
    private final TraceContext traceContext;
    private final JdbcTemplate jdbc;
    private final boolean notifyOtherInstances;

    OutboxDomainEventPublisher(ApplicationEventPublisher springEvents, EventExternalizer externalizer,
                               JdbcOutboxStore outbox, TraceContext traceContext, JdbcTemplate jdbc) {
        this.springEvents = springEvents;
        this.externalizer = externalizer;
        this.outbox = outbox;
        this.traceContext = traceContext;
        this.jdbc = jdbc;
        this.notifyOtherInstances = "postgresql".equals(outbox.dialectName());
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
        if (appended > 0) {
            wakeRelaysAfterCommit(appended);
        }
    }

    private void wakeRelaysAfterCommit(int appended) {
        if (notifyOtherInstances) {
            // NOTIFY is transactional: PostgreSQL delivers it on commit and drops it on rollback.
            jdbc.queryForObject("SELECT pg_notify(?, '')", Object.class, NOTIFY_CHANNEL);
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                springEvents.publishEvent(new OutboxMessagesCommitted(appended));
            }
        });
    }
}
