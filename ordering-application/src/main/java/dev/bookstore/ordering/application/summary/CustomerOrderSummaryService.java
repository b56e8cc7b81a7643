package dev.bookstore.ordering.application.summary;

import dev.bookstore.ordering.application.ordering.OrderRepository;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderPlaced;

/**
 * The customer order summary: each event's id is recorded in the same transaction as its count, so the count
 * changes once per event however often the event is handed over. {@link OrderCancelled} names the order, not
 * the customer: the customer is read from the order, which never changes hands.
 */
public final class CustomerOrderSummaryService implements SummarizeOrderEventsUseCase {

    private final CustomerOrderSummaries summaries;
    private final OrderRepository orders;

    public CustomerOrderSummaryService(CustomerOrderSummaries summaries, OrderRepository orders) {
        this.summaries = summaries;
        this.orders = orders;
    }

    @Override
    public void orderPlaced(OrderPlaced event) {
        summaries.addPlacedOnce(event.eventId(), event.customerId(), event.occurredAt());
    }

    @Override
    public void orderCancelled(OrderCancelled event) {
        if (summaries.recordEvent(event.eventId())) {
            CustomerId customer = orders.findById(event.orderId())
                    .orElseThrow(() -> new IllegalStateException("Order " + event.orderId() + " was cancelled but "
                            + "is not stored; the event stays incomplete and is resubmitted"))
                    .customerId();
            summaries.addCancelled(customer);
        }
    }
}
