package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.InvalidOrderException;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.shared.InvalidMoneyException;
import dev.bookstore.ordering.domain.shared.Money;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Place an order. Built from raw values so that every broken rule is reported with the path of the field at
 * fault ({@code items[2].unitPrice}), which the HTTP adapter passes on to the client.
 *
 * <p>The command checks shape (presence, formats, the digits of a price); the order's invariants, such as its 1 to
 * {@value Order#MAX_LINES} lines, are the domain's ({@link Order}) and checked there only.
 *
 * <p>A unit price is checked here as the client wrote it, before {@link Money} rescales it or anything computes
 * with it: at most {@value Money#MAX_DIGITS} digits, at most {@value OrderLine#MAX_UNIT_PRICE_INTEGER_DIGITS}
 * before the decimal point, no more decimal places than the currency has. Each check costs the same for
 * {@code 1e999999999} as for {@code 39.90}.
 *
 * @param idempotencyKey the client's key for this request, if it sent one: the customer's retries with the same
 *                       key place the order once
 */
public record PlaceOrderCommand(CustomerId customerId, Currency currency, List<OrderLine> lines,
                                Optional<IdempotencyKey> idempotencyKey) {

    /** Compiled once: {@code String.matches} compiled it again for every order. */
    private static final Pattern CURRENCY_CODE = Pattern.compile("[A-Z]{3}");

    public PlaceOrderCommand {
        Objects.requireNonNull(customerId, "customerId");
        Objects.requireNonNull(currency, "currency");
        lines = List.copyOf(lines);
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    }

    /** A command without an idempotency key: every such command places a new order. */
    public PlaceOrderCommand(CustomerId customerId, Currency currency, List<OrderLine> lines) {
        this(customerId, currency, lines, Optional.empty());
    }

    /** The same order, placed at most once for all the customer's requests that carry {@code key}. */
    public PlaceOrderCommand withIdempotencyKey(IdempotencyKey key) {
        return new PlaceOrderCommand(customerId, currency, lines, Optional.of(key));
    }

    /** One requested line, as the client sent it. */
    public record Item(String bookId, Integer quantity, BigDecimal unitPrice) {
    }

    /**
     * Validates and converts raw input.
     *
     * @throws InvalidOrderException naming the first field at fault
     */
    public static PlaceOrderCommand of(UUID customerId, String currencyCode, List<Item> items) {
        if (customerId == null) {
            throw new InvalidOrderException("customerId", "is required");
        }
        Currency currency = currency(currencyCode);
        if (items == null) {
            throw new InvalidOrderException("items", "is required");
        }
        List<OrderLine> lines = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            lines.add(line(i, items.get(i), currency));
        }
        return new PlaceOrderCommand(new CustomerId(customerId), currency, lines);
    }

    private static Currency currency(String code) {
        if (code == null || !CURRENCY_CODE.matcher(code).matches()) {
            throw new InvalidOrderException("currency", "must be an ISO 4217 code such as EUR");
        }
        try {
            return Currency.getInstance(code);
        } catch (IllegalArgumentException unknown) {
            throw new InvalidOrderException("currency", "unknown ISO 4217 currency " + code);
        }
    }

    private static OrderLine line(int index, Item item, Currency currency) {
        String path = "items[" + index + "]";
        if (item == null) {
            throw new InvalidOrderException(path, "is required");
        }
        if (item.bookId() == null) {
            throw new InvalidOrderException(path + ".bookId", "is required");
        }
        if (item.quantity() == null) {
            throw new InvalidOrderException(path + ".quantity", "is required");
        }
        if (item.unitPrice() == null) {
            throw new InvalidOrderException(path + ".unitPrice", "is required");
        }
        requireBoundedPrice(path + ".unitPrice", item.unitPrice(), currency);
        try {
            return new OrderLine(new BookId(item.bookId()), item.quantity(), new Money(item.unitPrice(), currency));
        } catch (InvalidOrderException e) {
            throw new InvalidOrderException(path + "." + e.field(), e.reason());
        } catch (InvalidMoneyException e) {
            throw new InvalidOrderException(path + ".unitPrice", e.getMessage());
        }
    }

    private static void requireBoundedPrice(String field, BigDecimal price, Currency currency) {
        if (Money.digits(price) > Money.MAX_DIGITS) {
            throw new InvalidOrderException(field, "must have at most %d digits".formatted(Money.MAX_DIGITS));
        }
        if (Money.integerDigits(price) > OrderLine.MAX_UNIT_PRICE_INTEGER_DIGITS) {
            throw new InvalidOrderException(field, "must have at most %d digits before the decimal point, got %s"
                    .formatted(OrderLine.MAX_UNIT_PRICE_INTEGER_DIGITS, Money.shown(price)));
        }
        int minorUnits = Money.minorUnits(currency);
        if (Money.decimalPlaces(price) > minorUnits) {
            throw new InvalidOrderException(field, "%s allows at most %d decimal place(s), got %s"
                    .formatted(currency.getCurrencyCode(), minorUnits, Money.shown(price)));
        }
    }
}
