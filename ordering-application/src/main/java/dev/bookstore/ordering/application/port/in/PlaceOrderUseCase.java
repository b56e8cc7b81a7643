package dev.bookstore.ordering.application.port.in;

/** Places an order: stores it and, in the same transaction, the {@code OrderPlaced} message for the broker. */
public interface PlaceOrderUseCase {

    OrderDetails placeOrder(PlaceOrderCommand command);
}
