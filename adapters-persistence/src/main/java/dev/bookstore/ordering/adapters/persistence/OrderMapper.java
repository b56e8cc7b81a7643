package dev.bookstore.ordering.adapters.persistence;

import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.shared.Money;
import java.util.Currency;

/** Translates between the aggregate and its rows; the aggregate never sees JPA. */
final class OrderMapper {

    private OrderMapper() {
    }

    static Order toDomain(OrderJpaEntity entity) {
        Currency currency = Currency.getInstance(entity.currency());
        return Order.reconstitute(new OrderId(entity.id()), new CustomerId(entity.customerId()), currency,
                entity.lines().stream()
                        .map(line -> new OrderLine(new BookId(line.bookId()), line.quantity(),
                                new Money(line.unitPrice(), currency)))
                        .toList(),
                entity.status(), entity.placedAt());
    }
}
