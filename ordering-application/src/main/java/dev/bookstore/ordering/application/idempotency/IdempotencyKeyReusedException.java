package dev.bookstore.ordering.application.idempotency;

import dev.bookstore.ordering.domain.shared.OrderingException;

/**
 * The customer sent an idempotency key that an earlier, different request already used. Nothing was placed: a
 * key names one request, and the client has to pick a new key for a new request.
 */
public class IdempotencyKeyReusedException extends OrderingException {

    public IdempotencyKeyReusedException() {
        super("this Idempotency-Key was already used for a different request; nothing was changed");
    }
}
