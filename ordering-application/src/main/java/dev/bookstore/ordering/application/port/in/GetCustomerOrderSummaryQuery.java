package dev.bookstore.ordering.application.port.in;

import dev.bookstore.ordering.application.summary.CustomerOrderSummary;
import dev.bookstore.ordering.domain.order.CustomerId;

/** A customer's order summary; a customer with no counted order has zeros. */
public interface GetCustomerOrderSummaryQuery {

    CustomerOrderSummary summaryOf(CustomerId customer);
}
