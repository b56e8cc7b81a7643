package dev.bookstore.ordering.application.summary;

import dev.bookstore.ordering.domain.order.CustomerId;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a customer has done so far, as the in-process listener of the order events counted it: orders placed,
 * orders cancelled, and when the latest order was placed. A read model, eventually consistent with the orders:
 * it lags the order's commit by the time the listener takes.
 *
 * @param lastOrderAt when the newest counted order was placed; empty before the first
 */
public record CustomerOrderSummary(CustomerId customerId, long ordersPlaced, long ordersCancelled,
                                   Optional<Instant> lastOrderAt) {

    public CustomerOrderSummary {
        Objects.requireNonNull(customerId, "customerId");
        Objects.requireNonNull(lastOrderAt, "lastOrderAt");
    }

    /** A customer none of whose events has been counted yet. */
    public static CustomerOrderSummary none(CustomerId customerId) {
        return new CustomerOrderSummary(customerId, 0, 0, Optional.empty());
    }
}
