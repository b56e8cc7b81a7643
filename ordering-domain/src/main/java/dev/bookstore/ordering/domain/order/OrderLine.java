package dev.bookstore.ordering.domain.order;

import dev.bookstore.ordering.domain.shared.Money;
import java.util.Objects;

/**
 * One book of an order, how many, and at which unit price. A unit price has at most
 * {@value #MAX_UNIT_PRICE_INTEGER_DIGITS} digits before the decimal point, so that the largest order
 * ({@value Order#MAX_LINES} lines of {@value #MAX_QUANTITY} books) still totals less than 10^15, the bound of every
 * {@link Money}: 10 + 3 + 2 = 15 digits.
 */
public record OrderLine(BookId bookId, int quantity, Money unitPrice) {

    public static final int MIN_QUANTITY = 1;
    public static final int MAX_QUANTITY = 1000;
    public static final int MAX_UNIT_PRICE_INTEGER_DIGITS = 10;

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
        if (Money.integerDigits(unitPrice.amount()) > MAX_UNIT_PRICE_INTEGER_DIGITS) {
            throw new InvalidOrderException("unitPrice", "must have at most %d digits before the decimal point, got %s"
                    .formatted(MAX_UNIT_PRICE_INTEGER_DIGITS, unitPrice));
        }
    }

    public Money lineTotal() {
        return unitPrice.times(quantity);
    }
}
