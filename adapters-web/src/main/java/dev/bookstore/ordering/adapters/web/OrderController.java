package dev.bookstore.ordering.adapters.web;

import dev.bookstore.ordering.adapters.web.problem.ProblemDocumentation;
import dev.bookstore.ordering.application.ordering.CancelOrderUseCase;
import dev.bookstore.ordering.application.ordering.GetOrderQuery;
import dev.bookstore.ordering.application.ordering.OrderDetails;
import dev.bookstore.ordering.application.ordering.OrderNotFoundException;
import dev.bookstore.ordering.application.ordering.PlaceOrderCommand;
import dev.bookstore.ordering.application.ordering.PlaceOrderUseCase;
import dev.bookstore.ordering.domain.order.OrderId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The order API. It never talks to the broker: placing an order only writes to the database. */
@Tag(name = "Orders", description = "A customer's orders: place, read, cancel")
@RestController
@RequestMapping(path = "/orders", produces = MediaType.APPLICATION_JSON_VALUE)
class OrderController {

    private final PlaceOrderUseCase placeOrder;
    private final CancelOrderUseCase cancelOrder;
    private final GetOrderQuery getOrder;
    private final ListenerBacklog listenerBacklog;

    OrderController(PlaceOrderUseCase placeOrder, CancelOrderUseCase cancelOrder, GetOrderQuery getOrder,
                    ListenerBacklog listenerBacklog) {
        this.placeOrder = placeOrder;
        this.cancelOrder = cancelOrder;
        this.getOrder = getOrder;
        this.listenerBacklog = listenerBacklog;
    }

    /**
     * {@code 201} with the order; with an {@code Idempotency-Key}, a retry of the same request gets the same
     * answer: {@code 201}, the same {@code Location}, the order the first request placed.
     */
    @Operation(operationId = "placeOrder", summary = "Place an order",
            description = """
                    Places an order for the caller, whose id (the token's subject) must be the body's `customerId`. \
                    The order and its `bookstore.order-placed.v1` event are stored in one transaction; the event is \
                    published afterwards. With an `Idempotency-Key`, a retry of the same request gets the first \
                    answer again (201, the same `Location` and order) instead of a second order.""")
    @ApiScopes.Customer
    @Parameter(name = IdempotencyKeyHeader.NAME, in = ParameterIn.HEADER,
            description = """
                    Makes retries safe: the same key with the same request answers like the first time, for the \
                    configured retention (24 h by default). Compared exactly, quotes included; scoped to the \
                    customer. Sent at most once.""",
            schema = @Schema(type = "string", minLength = 1, maxLength = 255, pattern = "^[!-~]+$",
                    example = "8e03978e-40d5-43e8-bc93-6894a57f9324"))
    @ApiResponse(responseCode = "201", description = "The order as placed (or as the first request with this key "
            + "placed it)", headers = @Header(name = HttpHeaders.LOCATION, description = "`/orders/{id}`",
            schema = @Schema(type = "string", format = "uri-reference")))
    @ApiResponse(responseCode = "409", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.CONFLICT)
    @ApiResponse(responseCode = "503",
            ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.SERVICE_UNAVAILABLE)
    @ApiResponse(responseCode = "413", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.CONTENT_TOO_LARGE)
    @ApiResponse(responseCode = "422",
            ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.IDEMPOTENCY_KEY_REUSED)
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<OrderResponse> place(@RequestBody OrderRequests.PlaceOrder request,
                                        @Parameter(hidden = true) HttpServletRequest http,
                                        @Parameter(hidden = true) Authentication caller) {
        listenerBacklog.admit();
        // The idempotency key's scope is the command's customer, which is the token's subject from here on.
        if (request.customerId() != null && !Caller.of(caller).mayPlaceFor(request.customerId())) {
            throw new ForeignCustomerException();
        }
        PlaceOrderCommand body = request.toCommand();
        PlaceOrderCommand command = IdempotencyKeyHeader.of(http).map(body::withIdempotencyKey).orElse(body);
        OrderDetails order = placeOrder.placeOrder(command);
        return ResponseEntity.created(URI.create("/orders/" + order.id())).body(OrderResponse.of(order));
    }

    /** Another customer's order answers 404, exactly like a missing one: its existence is not disclosed. */
    @Operation(operationId = "getOrder", summary = "Read an order",
            description = "A customer reads its own orders, an operator any order.")
    @ApiScopes.CustomerOrOperator
    @ApiResponse(responseCode = "200", description = "The order")
    @ApiResponse(responseCode = "404", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.NOT_FOUND)
    @GetMapping("/{id}")
    OrderResponse get(@PathVariable UUID id, @Parameter(hidden = true) Authentication caller) {
        return OrderResponse.of(visibleOrder(new OrderId(id), Caller.of(caller)));
    }

    private static final String LIMIT_RANGE = "must be between 1 and " + GetOrderQuery.MAX_RECENT_ORDERS;

    /**
     * An operator gets the newest orders of all customers, a customer its own. A limit out of 1..100 is a 400
     * naming {@code limit}: Spring MVC validates the constraints before the call.
     */
    @Operation(operationId = "listRecentOrders", summary = "List the newest orders",
            description = "The newest orders first: a customer's own, or an operator's view of all customers'.")
    @ApiScopes.CustomerOrOperator
    @ApiResponse(responseCode = "200", description = "Up to `limit` orders, the newest first")
    @GetMapping
    List<OrderResponse> recent(@Parameter(description = "How many orders at most")
                               @RequestParam(defaultValue = "20") @Min(value = 1, message = LIMIT_RANGE)
                               @Max(value = GetOrderQuery.MAX_RECENT_ORDERS, message = LIMIT_RANGE) int limit,
                               @Parameter(hidden = true) Authentication authentication) {
        Caller caller = Caller.of(authentication);
        List<OrderDetails> orders;
        if (caller.operator()) {
            orders = getOrder.recentOrders(limit);
        } else {
            orders = getOrder.recentOrdersOf(caller.customer().orElseThrow(ForeignCustomerException::new), limit);
        }
        return orders.stream().map(OrderResponse::of).toList();
    }

    @Operation(operationId = "cancelOrder", summary = "Cancel an order",
            description = """
                    Cancels a placed order (the customer's own, or any as an operator) and stores its \
                    `bookstore.order-cancelled.v1` event in the same transaction. An order that is not `PLACED` \
                    any more answers 409.""")
    @ApiScopes.CustomerOrOperator
    @ApiResponse(responseCode = "200", description = "The cancelled order")
    @ApiResponse(responseCode = "404", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.CONFLICT)
    @ApiResponse(responseCode = "503",
            ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.SERVICE_UNAVAILABLE)
    @ApiResponse(responseCode = "413", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.CONTENT_TOO_LARGE)
    @PostMapping(path = "/{id}/cancel", consumes = MediaType.APPLICATION_JSON_VALUE)
    OrderResponse cancel(@PathVariable UUID id, @RequestBody OrderRequests.CancelOrder request,
                         @Parameter(hidden = true) Authentication caller) {
        listenerBacklog.admit();
        OrderId orderId = new OrderId(id);
        // An order never changes hands, so checking before the cancel's own transaction is enough.
        visibleOrder(orderId, Caller.of(caller));
        return OrderResponse.of(cancelOrder.cancelOrder(orderId, request.reason() == null ? "" : request.reason()));
    }

    private OrderDetails visibleOrder(OrderId id, Caller caller) {
        return getOrder.findOrder(id).filter(caller::maySee).orElseThrow(() -> new OrderNotFoundException(id));
    }
}
