package dev.bookstore.ordering.adapters.web;

import dev.bookstore.ordering.application.ordering.PlaceOrderCommand;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderLine;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

/** The JSON bodies the order endpoints accept. Everything is nullable here; the command says what is missing. */
final class OrderRequests {

    private OrderRequests() {
    }

    @Schema(name = "PlaceOrderRequest", description = "An order to place")
    record PlaceOrder(
            @Schema(requiredMode = RequiredMode.REQUIRED,
                    description = "The customer: the subject of the caller's token") UUID customerId,
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "ISO 4217 code; every item is priced in it",
                    example = "EUR", pattern = "^[A-Z]{3}$") String currency,
            @ArraySchema(minItems = 1, maxItems = Order.MAX_LINES, arraySchema = @Schema(
                    requiredMode = RequiredMode.REQUIRED, description = "The books ordered")) List<Item> items) {

        PlaceOrderCommand toCommand() {
            List<PlaceOrderCommand.Item> lines = items == null ? null : items.stream()
                    .map(item -> item == null ? null : item.toCommandItem())
                    .toList();
            return PlaceOrderCommand.of(customerId, currency, lines);
        }
    }

    @Schema(name = "OrderItemRequest")
    record Item(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "978-0134494166", pattern = "^[A-Za-z0-9_-]{1,64}$")
            String bookId,
            @Schema(requiredMode = RequiredMode.REQUIRED, minimum = "" + OrderLine.MIN_QUANTITY,
                    maximum = "" + OrderLine.MAX_QUANTITY, example = "2")
            Integer quantity,
            @Schema(requiredMode = RequiredMode.REQUIRED, types = {"string", "number"}, example = "9.95",
                    description = """
                            A decimal number greater than zero, with at most the currency's minor units (2 for EUR) \
                            and at most 10 digits before the decimal point. A JSON string (as in responses) or a JSON \
                            number: the number is read from its text, exactly, never through binary floating point; \
                            a number with more decimals than the currency has (what floating point arithmetic can \
                            leave, 19.900000000000002) is refused with 400.""")
            BigDecimal unitPrice) {

        PlaceOrderCommand.Item toCommandItem() {
            return new PlaceOrderCommand.Item(bookId, quantity, unitPrice);
        }
    }

    @Schema(name = "CancelOrderRequest")
    record CancelOrder(
            @Schema(requiredMode = RequiredMode.REQUIRED, minLength = 1, maxLength = Order.MAX_REASON_LENGTH,
                    description = "Why, for people: no control characters but tab and line breaks")
            String reason) {
    }
}
