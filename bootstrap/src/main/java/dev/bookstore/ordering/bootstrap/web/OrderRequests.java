package dev.bookstore.ordering.bootstrap.web;

import dev.bookstore.ordering.application.port.in.PlaceOrderCommand;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

/** The JSON bodies the order endpoints accept. Everything is nullable here; the command says what is missing. */
final class OrderRequests {

    private OrderRequests() {
    }

    record PlaceOrder(UUID customerId, String currency, List<Item> items) {

        PlaceOrderCommand toCommand() {
            List<PlaceOrderCommand.Item> lines = items == null ? null : items.stream()
                    .map(item -> item == null ? null : item.toCommandItem())
                    .toList();
            return PlaceOrderCommand.of(customerId, currency, lines);
        }
    }

    record Item(String bookId, Integer quantity, BigDecimal unitPrice) {

        PlaceOrderCommand.Item toCommandItem() {
            return new PlaceOrderCommand.Item(bookId, quantity, unitPrice);
        }
    }

    record CancelOrder(String reason) {
    }
}
