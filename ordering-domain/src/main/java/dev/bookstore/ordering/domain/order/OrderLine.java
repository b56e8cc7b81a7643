package dev.bookstore.ordering.domain.order;

import dev.bookstore.ordering.domain.shared.Money;
import java.util.Objects;

/** One book of an order, how many, and at which unit price. */
public record OrderLine(BookId bookId, int quantity, Money unitPrice) {

    public static final int MIN_QUANTITY = 1;
    public static final int MAX_QUANTITY = 1000;

    public OrderLine {
        Objects.requireNonNull(bookId, "bookId");
        Objects.requireNonNull(unitPrice, "unitPrice");
        if (quantity < MIN_QUANTITY || quantity > MAX_QUANTITY) {
            throw new InvalidOrderException("quantity",
                    "must be between %d and %d, got %d".formatted(MIN_QUANTITY, MAX_QUANTITY, quantity));
        }
        if (!unitPrice.isPositive()) {
            throw new InvalidOrderException("unitPrice", "must be greater than zero, got " + unitPrice);
        }
    }

    public Money lineTotal() {
        return unitPrice.times(quantity);
    }
}
