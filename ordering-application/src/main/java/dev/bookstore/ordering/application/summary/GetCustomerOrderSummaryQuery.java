package dev.bookstore.ordering.application.summary;

import dev.bookstore.ordering.domain.order.CustomerId;

/** A customer's order summary; a customer with no counted order has zeros. */
public interface GetCustomerOrderSummaryQuery {

    CustomerOrderSummary summaryOf(CustomerId customer);
}
