package dev.bookstore.ordering.application.outbox.admin;

import java.time.Instant;

/**
 * Which published messages an operator sends again: those of one aggregate, those that occurred in a time range
 * ({@code from} inclusive, {@code to} exclusive, on the event's {@code occurred_at}: the AMQP timestamp the
 * consumers saw), or those of one aggregate in a range. Whether a selection is narrow enough is
 * {@link ReplayLimits}' decision; this only holds what was asked.
 *
 * @param aggregateType optional; narrows an aggregate id to one type
 */
public record ReplaySelection(String aggregateType, String aggregateId, Instant from, Instant to) {

    public boolean byAggregate() {
        return aggregateId != null;
    }

    public boolean byTime() {
        return from != null || to != null;
    }
}
