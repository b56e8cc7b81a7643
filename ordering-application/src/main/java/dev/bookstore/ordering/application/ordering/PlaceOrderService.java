package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeyReusedException;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys.Claim;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys;
import dev.bookstore.ordering.application.idempotency.RequestInProgressException;
import dev.bookstore.ordering.application.outbox.EventOutbox;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import java.time.Clock;
import java.util.Optional;

/**
 * Places an order; the caller's transaction covers the order, its outbox message and its idempotency key.
 *
 * <p>A command with an idempotency key claims the key first, for the new order. If a finished request of the
 * same customer used the key, the new order is dropped: the same request gets the order it placed, a different
 * one is refused. If that request is still in flight, this one is refused at once rather than made to wait.
 * A command without a key touches no key at all.
 */
public final class PlaceOrderService implements PlaceOrderUseCase {

    private final OrderRepository orders;
    private final EventOutbox events;
    private final IdempotencyKeys idempotencyKeys;
    private final Clock clock;

    public PlaceOrderService(OrderRepository orders, EventOutbox events, IdempotencyKeys idempotencyKeys,
                      Clock clock) {
        this.orders = orders;
        this.events = events;
        this.idempotencyKeys = idempotencyKeys;
        this.clock = clock;
    }

    @Override
    public OrderDetails placeOrder(PlaceOrderCommand command) {
        // Placed first so that an order the aggregate rejects never takes the key.
        Order order = Order.place(command.customerId(), command.currency(), command.lines(), clock.instant());
        if (command.idempotencyKey().isPresent()) {
            Optional<OrderDetails> earlier = orderOfEarlierRequest(command, command.idempotencyKey().get(),
                    order.id());
            if (earlier.isPresent()) {
                return earlier.get();
            }
        }
        orders.add(order);
        events.record(order.pullRecordedEvents());
        return OrderDetails.of(order);
    }

    /** Claims the key for the new order; the order of an earlier request that used it with the same command. */
    private Optional<OrderDetails> orderOfEarlierRequest(PlaceOrderCommand command, IdempotencyKey key,
                                                         OrderId newOrder) {
        String fingerprint = RequestFingerprint.of(command);
        Claim claim = idempotencyKeys.claim(command.customerId(), key, fingerprint, newOrder);
        if (claim instanceof Claim.Recorded) {
            return Optional.empty();
        }
        if (claim instanceof Claim.Used used) {
            if (!used.requestFingerprint().equals(fingerprint)) {
                throw new IdempotencyKeyReusedException();
            }
            return Optional.of(orders.findById(used.orderId()).map(OrderDetails::of).orElseThrow(() ->
                    new IllegalStateException("idempotency key of customer " + command.customerId()
                            + " names order " + used.orderId() + ", which does not exist")));
        }
        throw new RequestInProgressException();
    }
}
