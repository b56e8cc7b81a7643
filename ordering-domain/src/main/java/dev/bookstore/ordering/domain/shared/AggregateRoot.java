package dev.bookstore.ordering.domain.shared;

import java.util.ArrayList;
import java.util.List;

/**
 * Base of aggregates that record their events while they change, for the application to hand over
 * after the aggregate was saved (the Spring Data {@code AbstractAggregateRoot} idea without Spring).
 */
public abstract class AggregateRoot {

    private final List<DomainEvent> recordedEvents = new ArrayList<>();

    protected final void record(DomainEvent event) {
        recordedEvents.add(event);
    }

    /** The events recorded since the last call, oldest first; the aggregate forgets them. */
    public final List<DomainEvent> pullRecordedEvents() {
        List<DomainEvent> events = List.copyOf(recordedEvents);
        recordedEvents.clear();
        return events;
    }
}
