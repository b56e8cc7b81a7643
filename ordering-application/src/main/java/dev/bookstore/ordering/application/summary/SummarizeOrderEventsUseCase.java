package dev.bookstore.ordering.application.summary;

import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderPlaced;

/**
 * Counts order events into the customer's order summary, once per event id: an event handed over again (a
 * resubmitted publication, or the same publication on two instances) changes nothing the second time.
 */
public interface SummarizeOrderEventsUseCase {

    void orderPlaced(OrderPlaced event);

    void orderCancelled(OrderCancelled event);
}
