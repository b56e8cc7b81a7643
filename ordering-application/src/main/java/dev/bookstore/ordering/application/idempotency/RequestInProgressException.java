package dev.bookstore.ordering.application.idempotency;

import dev.bookstore.ordering.domain.shared.OrderingException;

/**
 * Another request with the same idempotency key has not finished yet, so whether it placed its order is not
 * known. Nothing was placed; asking again once the other request has finished answers with its outcome.
 */
public class RequestInProgressException extends OrderingException {

    public RequestInProgressException() {
        super("a request with this Idempotency-Key is still in progress; retry to get its outcome");
    }
}
