package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.application.idempotency.IdempotencyKeyReusedException;
import dev.bookstore.ordering.application.idempotency.RequestInProgressException;

/**
 * Places an order: stores it and, in the same transaction, the {@code OrderPlaced} message for the broker. With
 * an idempotency key, the customer's requests that carry the key place one order between them.
 */
public interface PlaceOrderUseCase {

    /**
     * @return the new order; or, when a finished request of the customer with the same command and key placed
     *         one, that order, and nothing is written
     * @throws IdempotencyKeyReusedException when the customer used the key for a different command
     * @throws RequestInProgressException    when a request of the customer with the key has not finished yet
     */
    OrderDetails placeOrder(PlaceOrderCommand command);
}
