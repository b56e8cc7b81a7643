package dev.bookstore.ordering.adapters.web;

/** A customer's token used for another customer's orders, or a customer scope without a customer id subject. */
public final class ForeignCustomerException extends RuntimeException {

    ForeignCustomerException() {
        super("A customer places and lists orders only as itself: the customerId must be the token's subject, "
                + "a customer id.");
    }
}
