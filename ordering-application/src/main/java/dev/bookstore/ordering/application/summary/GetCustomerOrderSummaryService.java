package dev.bookstore.ordering.application.summary;

import dev.bookstore.ordering.domain.order.CustomerId;

/** A customer's summary, or zeros for a customer who has not ordered yet. */
public final class GetCustomerOrderSummaryService implements GetCustomerOrderSummaryQuery {

    private final CustomerOrderSummaries summaries;

    public GetCustomerOrderSummaryService(CustomerOrderSummaries summaries) {
        this.summaries = summaries;
    }

    @Override
    public CustomerOrderSummary summaryOf(CustomerId customer) {
        return summaries.find(customer).orElseGet(() -> CustomerOrderSummary.none(customer));
    }
}
