package dev.bookstore.ordering.adapters.messaging.outbound;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Currency;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The body of a {@code bookstore.order-placed.v1} message as a consumer reads it. Amounts keep the scale they
 * travelled with ({@code "19.90"} stays {@code 19.90}).
 */
public record OrderPlacedPayload(
        UUID orderId,
        UUID customerId,
        BigDecimal total,
        Currency currency,
        Instant placedAt,
        List<Item> items) {

    public OrderPlacedPayload {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(customerId, "customerId");
        Objects.requireNonNull(total, "total");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(placedAt, "placedAt");
        items = List.copyOf(items);
    }

    /** One line of the order, priced in the order's currency. */
    public record Item(String bookId, int quantity, BigDecimal unitPrice) {

        public Item {
            Objects.requireNonNull(bookId, "bookId");
            Objects.requireNonNull(unitPrice, "unitPrice");
        }
    }
}
