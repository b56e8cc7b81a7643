package dev.bookstore.ordering.adapters.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.math.BigDecimal;

/** Row of {@code order_line}. */
@Embeddable
class OrderLineEmbeddable {

    @Column(name = "book_id", nullable = false, length = 64)
    private String bookId;

    @Column(nullable = false)
    private int quantity;

    @Column(name = "unit_price", nullable = false, precision = 19, scale = 4)
    private BigDecimal unitPrice;

    protected OrderLineEmbeddable() {
    }

    OrderLineEmbeddable(String bookId, int quantity, BigDecimal unitPrice) {
        this.bookId = bookId;
        this.quantity = quantity;
        this.unitPrice = unitPrice;
    }

    String bookId() {
        return bookId;
    }

    int quantity() {
        return quantity;
    }

    BigDecimal unitPrice() {
        return unitPrice;
    }
}
