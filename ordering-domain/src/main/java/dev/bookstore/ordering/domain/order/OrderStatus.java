package dev.bookstore.ordering.domain.order;

/** Where an order is in its life. */
public enum OrderStatus {
    PLACED,
    CANCELLED
}
