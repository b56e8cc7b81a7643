package dev.bookstore.ordering.domain.order;

import dev.bookstore.ordering.domain.shared.AggregateRoot;
import dev.bookstore.ordering.domain.shared.Money;
import dev.bookstore.ordering.domain.shared.UuidV7;
import java.time.Instant;
import java.util.Currency;
import java.util.List;
import java.util.Objects;

/**
 * A customer's order of books. Invariants: 1 to {@value #MAX_LINES} lines, all priced in the order's one
 * currency; the total is the sum of the lines. Placing and cancelling record {@link OrderPlaced} and
 * {@link OrderCancelled}.
 */
public final class Order extends AggregateRoot {

    public static final int MAX_LINES = 100;
    public static final int MAX_REASON_LENGTH = 500;

    private final OrderId id;
    private final CustomerId customerId;
    private final List<OrderLine> lines;
    private final Currency currency;
    private final Money total;
    private final Instant placedAt;
    private OrderStatus status;

    private Order(OrderId id, CustomerId customerId, List<OrderLine> lines, Currency currency,
                  OrderStatus status, Instant placedAt) {
        this.id = Objects.requireNonNull(id, "id");
        this.customerId = Objects.requireNonNull(customerId, "customerId");
        this.currency = Objects.requireNonNull(currency, "currency");
        this.status = Objects.requireNonNull(status, "status");
        this.placedAt = Objects.requireNonNull(placedAt, "placedAt");
        this.lines = List.copyOf(Objects.requireNonNull(lines, "lines"));
        if (this.lines.isEmpty()) {
            throw new InvalidOrderException("items", "an order needs at least one line");
        }
        if (this.lines.size() > MAX_LINES) {
            throw new InvalidOrderException("items",
                    "an order has at most %d lines, got %d".formatted(MAX_LINES, this.lines.size()));
        }
        Money sum = Money.zero(currency);
        for (int i = 0; i < this.lines.size(); i++) {
            Money price = this.lines.get(i).unitPrice();
            if (!price.currency().equals(currency)) {
                throw new InvalidOrderException("items[%d].unitPrice".formatted(i),
                        "priced in %s, but the order is in %s".formatted(price.currency(), currency));
            }
            sum = sum.plus(this.lines.get(i).lineTotal());
        }
        this.total = sum;
    }

    /** A new order; records {@link OrderPlaced}. */
    public static Order place(CustomerId customerId, Currency currency, List<OrderLine> lines, Instant now) {
        Order order = new Order(OrderId.newId(now), customerId, lines, currency, OrderStatus.PLACED, now);
        order.record(new OrderPlaced(UuidV7.at(now), now, order.id, customerId, order.total, order.lines));
        return order;
    }

    /** An order read back from storage; records nothing. */
    public static Order reconstitute(OrderId id, CustomerId customerId, Currency currency, List<OrderLine> lines,
                                     OrderStatus status, Instant placedAt) {
        return new Order(id, customerId, lines, currency, status, placedAt);
    }

    /** Cancels a placed order; records {@link OrderCancelled}. */
    public void cancel(String reason, Instant now) {
        Objects.requireNonNull(reason, "reason");
        if (reason.isBlank() || reason.length() > MAX_REASON_LENGTH) {
            throw new InvalidOrderException("reason",
                    "must be 1 to %d characters".formatted(MAX_REASON_LENGTH));
        }
        // A reason is text for people. NUL cannot be stored in PostgreSQL text or jsonb at all, and an escape
        // sequence would repaint the terminal of whoever reads the logs.
        if (reason.chars().anyMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r')) {
            throw new InvalidOrderException("reason", "must not contain control characters other than tab and "
                    + "line breaks");
        }
        if (status != OrderStatus.PLACED) {
            throw new OrderCannotBeCancelledException(id, status);
        }
        status = OrderStatus.CANCELLED;
        record(new OrderCancelled(UuidV7.at(now), now, id, reason));
    }

    public OrderId id() {
        return id;
    }

    public CustomerId customerId() {
        return customerId;
    }

    public List<OrderLine> lines() {
        return lines;
    }

    public Currency currency() {
        return currency;
    }

    public Money total() {
        return total;
    }

    public OrderStatus status() {
        return status;
    }

    public Instant placedAt() {
        return placedAt;
    }
}
