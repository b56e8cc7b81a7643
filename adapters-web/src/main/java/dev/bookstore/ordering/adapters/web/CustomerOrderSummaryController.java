package dev.bookstore.ordering.adapters.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.bookstore.ordering.application.summary.CustomerOrderSummary;
import dev.bookstore.ordering.application.summary.GetCustomerOrderSummaryQuery;
import dev.bookstore.ordering.domain.order.CustomerId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A customer's order summary, kept by the in-process listener of the order events: it follows the orders within
 * moments of their commit, not in the same transaction.
 */
@Tag(name = "Customers", description = "What a customer has ordered so far")
@RestController
@RequestMapping(path = "/customers", produces = MediaType.APPLICATION_JSON_VALUE)
class CustomerOrderSummaryController {

    private final GetCustomerOrderSummaryQuery summaries;

    CustomerOrderSummaryController(GetCustomerOrderSummaryQuery summaries) {
        this.summaries = summaries;
    }

    @Operation(operationId = "getMyOrderSummary", summary = "The caller's order summary",
            description = "Orders placed and cancelled by the caller (the token's subject), and when the latest "
                    + "was placed. Counted from the order events shortly after each order commits.")
    @ApiScopes.Customer
    @ApiResponse(responseCode = "200", description = "The summary; zeros before the first order")
    @GetMapping("/me/order-summary")
    OrderSummaryResponse mine(@Parameter(hidden = true) Authentication authentication) {
        CustomerId customer = Caller.of(authentication).customer().orElseThrow(ForeignCustomerException::new);
        return OrderSummaryResponse.of(summaries.summaryOf(customer));
    }

    @Operation(operationId = "getOrderSummary", summary = "A customer's order summary",
            description = "An operator reads any customer's summary, a customer only its own.")
    @ApiScopes.CustomerOrOperator
    @ApiResponse(responseCode = "200", description = "The summary; zeros before the first order")
    @GetMapping("/{customerId}/order-summary")
    OrderSummaryResponse of(@PathVariable UUID customerId, @Parameter(hidden = true) Authentication authentication) {
        Caller caller = Caller.of(authentication);
        if (!caller.operator() && !caller.mayPlaceFor(customerId)) {
            throw new ForeignCustomerException();
        }
        return OrderSummaryResponse.of(summaries.summaryOf(new CustomerId(customerId)));
    }

    @Schema(name = "CustomerOrderSummary")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record OrderSummaryResponse(
            @Schema(requiredMode = RequiredMode.REQUIRED) UUID customerId,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "3") long ordersPlaced,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "1") long ordersCancelled,
            @Schema(description = "When the latest order was placed; absent before the first") Instant lastOrderAt) {

        static OrderSummaryResponse of(CustomerOrderSummary summary) {
            return new OrderSummaryResponse(summary.customerId().value(), summary.ordersPlaced(),
                    summary.ordersCancelled(), summary.lastOrderAt().orElse(null));
        }
    }
}
