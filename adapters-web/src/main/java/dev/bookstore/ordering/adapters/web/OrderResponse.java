package dev.bookstore.ordering.adapters.web;

import dev.bookstore.ordering.application.ordering.OrderDetails;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * An order as the API shows it. Amounts are strings with the currency's scale ("19.90"), so no client parses
 * money into a binary float by accident.
 */
@Schema(name = "Order")
record OrderResponse(
        @Schema(requiredMode = RequiredMode.REQUIRED) UUID id,
        @Schema(requiredMode = RequiredMode.REQUIRED) UUID customerId,
        @Schema(requiredMode = RequiredMode.REQUIRED, example = "19.90",
                description = "Sum of the items, with exactly the currency's minor units") String total,
        @Schema(requiredMode = RequiredMode.REQUIRED, example = "EUR") String currency,
        @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"PLACED", "CANCELLED"}) String status,
        @Schema(requiredMode = RequiredMode.REQUIRED) Instant placedAt,
        @Schema(requiredMode = RequiredMode.REQUIRED) List<Item> items) {

    @Schema(name = "OrderItem")
    record Item(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "978-0134494166") String bookId,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "2") int quantity,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "9.95") String unitPrice) {
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
