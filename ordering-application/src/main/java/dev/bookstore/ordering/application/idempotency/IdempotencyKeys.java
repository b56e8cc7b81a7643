package dev.bookstore.ordering.application.idempotency;

import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import java.time.Duration;
import java.util.Objects;

/**
 * The idempotency keys customers sent with the orders they placed: per customer and key, which order the key
 * placed and a fingerprint of the request that placed it. A key is recorded in the transaction that places its
 * order, so the two commit or roll back together: a key is never left behind without its order, nor the other
 * way round.
 */
public interface IdempotencyKeys {

    /**
     * Records, in the caller's transaction, that {@code key} of {@code customer} places {@code orderId}, unless
     * the key is in use already. Never waits for another transaction that holds the same key: that one is
     * reported at once as {@link Claim.InFlight}.
     *
     * @param requestFingerprint identifies the request; compared for equality only; at most 64 characters
     */
    Claim claim(CustomerId customer, IdempotencyKey key, String requestFingerprint, OrderId orderId);

    /**
     * Deletes up to {@code limit} keys recorded more than {@code retention} ago, by the store's clock (the
     * database's, never a JVM's), in a short transaction of its own. Keys that another transaction holds or is
     * deleting are skipped, not waited for, so that every instance can purge at the same time. Returns how many
     * were deleted.
     */
    int deleteExpired(Duration retention, int limit);

    /** What {@link #claim} found. */
    sealed interface Claim {

        /** The key was free; it is now recorded with the new order. */
        record Recorded() implements Claim {
        }

        /** Another request holds the key and has not finished: whether it places its order is not known yet. */
        record InFlight() implements Claim {
        }

        /** A finished request used the key: the one with {@code requestFingerprint}, and it placed {@code orderId}. */
        record Used(String requestFingerprint, OrderId orderId) implements Claim {

            public Used {
                Objects.requireNonNull(requestFingerprint, "requestFingerprint");
                Objects.requireNonNull(orderId, "orderId");
            }
        }
    }
}
