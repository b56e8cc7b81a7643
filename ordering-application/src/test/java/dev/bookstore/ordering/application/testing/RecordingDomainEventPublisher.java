package dev.bookstore.ordering.application.testing;

import dev.bookstore.ordering.application.port.out.DomainEventPublisher;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.ArrayList;
import java.util.List;

/** {@link DomainEventPublisher} that only remembers what it was handed, in order. */
public final class RecordingDomainEventPublisher implements DomainEventPublisher {

    private final List<List<DomainEvent>> calls = new ArrayList<>();

    @Override
    public synchronized void publish(List<DomainEvent> events) {
        calls.add(List.copyOf(events));
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
