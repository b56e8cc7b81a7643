package dev.bookstore.ordering.application.outbox.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What keeps a replay bounded: a replay names an aggregate or a closed time range no wider than
 * {@code maxWindow}, within the retention (older published rows are deleted, so a range reaching past it would
 * silently send less than asked), and selects at most {@code maxMessages}.
 */
public record ReplayLimits(int maxMessages, Duration maxWindow, Duration retention) {

    /** Why a selection is refused, naming the field at fault. */
    public record Refusal(String field, String reason) {
    }

    public ReplayLimits {
        if (maxMessages < 1) {
            throw new IllegalArgumentException("maxMessages must be positive, got " + maxMessages);
        }
        Objects.requireNonNull(maxWindow, "maxWindow");
        Objects.requireNonNull(retention, "retention");
    }

    /** The reason to refuse {@code selection} at {@code now}, or empty when it is bounded. */
    public Optional<Refusal> refusal(ReplaySelection selection, Instant now) {
        if (selection.aggregateType() != null && !selection.byAggregate()) {
            return refuse("aggregateType", "narrows an aggregateId and needs one");
        }
        if (!selection.byAggregate() && !selection.byTime()) {
            return refuse("aggregateId", "is required unless from and to are given: a replay is never unbounded");
        }
        if (selection.aggregateId() != null && selection.aggregateId().isBlank()) {
            return refuse("aggregateId", "must not be blank");
        }
        if (selection.byTime()) {
            if (selection.from() == null) {
                return refuse("from", "is required with to");
            }
            if (selection.to() == null) {
                return refuse("to", "is required with from");
            }
            if (!selection.to().isAfter(selection.from())) {
                return refuse("to", "must be after from");
            }
            if (Duration.between(selection.from(), selection.to()).compareTo(maxWindow) > 0) {
                return refuse("to", "must be at most " + maxWindow + " after from");
            }
            if (selection.from().isBefore(now.minus(retention))) {
                return refuse("from", "must be within the retention of published messages (" + retention
                        + "); older ones are deleted");
            }
        }
        return Optional.empty();
    }

    private static Optional<Refusal> refuse(String field, String reason) {
        return Optional.of(new Refusal(field, reason));
    }
}
