package dev.bookstore.ordering.application.outbox;

import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What happens to the events an aggregate recorded, inside the use case's transaction. The write flows one way:
 * every event goes to the in-process listeners; every event the wire contract knows leaves the service, so it
 * becomes an {@link OutboxMessage} built here (the contract's type, exchange, routing key and body, the event's
 * id and time, the current trace as headers) and handed to the {@link OutboxWriter}, which only stores it. The
 * messaging adapter publishes the stored row later. Nothing here knows a database, a broker or a tracer.
 */
public final class EventOutbox {

    private final DomainEventPublisher inProcess;
    private final EventExternalizer contract;
    private final TraceContext trace;
    private final OutboxWriter writer;

    public EventOutbox(DomainEventPublisher inProcess, EventExternalizer contract, TraceContext trace,
                       OutboxWriter writer) {
        this.inProcess = Objects.requireNonNull(inProcess, "inProcess");
        this.contract = Objects.requireNonNull(contract, "contract");
        this.trace = Objects.requireNonNull(trace, "trace");
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    /** Publishes {@code events} in process and stores the outbox message of each one that leaves the service. */
    public void record(List<DomainEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        inProcess.publish(events);
        List<OutboxMessage> messages = new ArrayList<>(events.size());
        Map<String, String> headers = null;
        for (DomainEvent event : events) {
            Optional<ExternalizedEvent> external = contract.externalize(event);
            if (external.isPresent()) {
                if (headers == null) {
                    headers = trace.currentHeaders();
                }
                messages.add(external.get().toOutboxMessage(event, headers));
            }
        }
        if (!messages.isEmpty()) {
            writer.append(messages);
        }
    }
}
