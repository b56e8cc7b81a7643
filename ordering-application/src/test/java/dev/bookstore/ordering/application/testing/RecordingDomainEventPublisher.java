package dev.bookstore.ordering.application.testing;

import dev.bookstore.ordering.application.outbox.DomainEventPublisher;
import dev.bookstore.ordering.application.outbox.EventOutbox;
import dev.bookstore.ordering.application.outbox.TraceContext;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link DomainEventPublisher} that only remembers what it was handed, in order. */
public final class RecordingDomainEventPublisher implements DomainEventPublisher {

    private final List<List<DomainEvent>> calls = new ArrayList<>();

    @Override
    public synchronized void publish(List<DomainEvent> events) {
        calls.add(List.copyOf(events));
    }

    /**
     * An {@link EventOutbox} that hands every event to this recorder and lets none leave the service (the
     * outbox itself is tested by {@code EventOutboxTest}).
     */
    public EventOutbox outbox() {
        return new EventOutbox(this, event -> Optional.empty(), TraceContext.none(), messages -> {
            throw new AssertionError("no event leaves the service in this test: " + messages);
        });
    }

    /** Every event handed over, oldest first, across all calls. */
    public synchronized List<DomainEvent> events() {
        return calls.stream().flatMap(List::stream).toList();
    }

    /** The events of one type, oldest first. */
    public synchronized <T extends DomainEvent> List<T> events(Class<T> type) {
        return events().stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The lists handed to {@link #publish(List)}, one per call. */
    public synchronized List<List<DomainEvent>> calls() {
        return List.copyOf(calls);
    }

    public synchronized void clear() {
        calls.clear();
    }
}
