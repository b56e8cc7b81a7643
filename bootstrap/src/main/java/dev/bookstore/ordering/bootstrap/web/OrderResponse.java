package dev.bookstore.ordering.bootstrap.web;

import dev.bookstore.ordering.application.port.in.OrderDetails;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * An order as the API shows it. Amounts are strings with the currency's scale ("19.90"), so no client parses
 * money into a binary float by accident.
 */
record OrderResponse(UUID id, UUID customerId, String total, String currency, String status, Instant placedAt,
                     List<Item> items) {

    record Item(String bookId, int quantity, String unitPrice) {
    }

    static OrderResponse of(OrderDetails order) {
        return new OrderResponse(order.id(), order.customerId(), order.total().amount().toPlainString(),
                order.total().currency().getCurrencyCode(), order.status().name(), order.placedAt(),
                order.lines().stream()
                        .map(line -> new Item(line.bookId().value(), line.quantity(),
                                line.unitPrice().amount().toPlainString()))
                        .toList());
    }
}
