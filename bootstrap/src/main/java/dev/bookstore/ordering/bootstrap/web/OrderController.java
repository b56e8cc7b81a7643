package dev.bookstore.ordering.bootstrap.web;

import dev.bookstore.ordering.application.port.in.CancelOrderUseCase;
import dev.bookstore.ordering.application.port.in.GetOrderQuery;
import dev.bookstore.ordering.application.port.in.OrderDetails;
import dev.bookstore.ordering.application.port.in.OrderNotFoundException;
import dev.bookstore.ordering.application.port.in.PlaceOrderCommand;
import dev.bookstore.ordering.application.port.in.PlaceOrderUseCase;
import dev.bookstore.ordering.domain.order.OrderId;
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
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The order API. It never talks to the broker: placing an order only writes to the database. */
@RestController
@RequestMapping(path = "/orders", produces = MediaType.APPLICATION_JSON_VALUE)
class OrderController {

    private final PlaceOrderUseCase placeOrder;
    private final CancelOrderUseCase cancelOrder;
    private final GetOrderQuery getOrder;

    OrderController(PlaceOrderUseCase placeOrder, CancelOrderUseCase cancelOrder, GetOrderQuery getOrder) {
        this.placeOrder = placeOrder;
        this.cancelOrder = cancelOrder;
        this.getOrder = getOrder;
    }

    /**
     * {@code 201} with the order; with an {@code Idempotency-Key}, a retry of the same request gets the same
     * answer: {@code 201}, the same {@code Location}, the order the first request placed.
     */
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<OrderResponse> place(@RequestBody OrderRequests.PlaceOrder request,
                                        @RequestHeader HttpHeaders headers, Authentication caller) {
        // The idempotency key's scope is the command's customer, which is the token's subject from here on.
        if (request.customerId() != null && !Caller.of(caller).mayPlaceFor(request.customerId())) {
            throw new ForeignCustomerException();
        }
        PlaceOrderCommand body = request.toCommand();
        PlaceOrderCommand command = IdempotencyKeyHeader.of(headers).map(body::withIdempotencyKey).orElse(body);
        OrderDetails order = placeOrder.placeOrder(command);
        return ResponseEntity.created(URI.create("/orders/" + order.id())).body(OrderResponse.of(order));
    }

    /** Another customer's order answers 404, exactly like a missing one: its existence is not disclosed. */
    @GetMapping("/{id}")
    OrderResponse get(@PathVariable UUID id, Authentication caller) {
        return OrderResponse.of(visibleOrder(new OrderId(id), Caller.of(caller)));
    }

    private static final String LIMIT_RANGE = "must be between 1 and " + GetOrderQuery.MAX_RECENT_ORDERS;

    /**
     * An operator gets the newest orders of all customers, a customer its own. A limit out of 1..100 is a 400
     * naming {@code limit}: Spring MVC validates the constraints before the call.
     */
    @GetMapping
    List<OrderResponse> recent(@RequestParam(defaultValue = "20") @Min(value = 1, message = LIMIT_RANGE)
                               @Max(value = GetOrderQuery.MAX_RECENT_ORDERS, message = LIMIT_RANGE) int limit,
                               Authentication authentication) {
        Caller caller = Caller.of(authentication);
        List<OrderDetails> orders;
        if (caller.operator()) {
            orders = getOrder.recentOrders(limit);
        } else {
            orders = getOrder.recentOrdersOf(caller.customer().orElseThrow(ForeignCustomerException::new), limit);
        }
        return orders.stream().map(OrderResponse::of).toList();
    }

    @PostMapping(path = "/{id}/cancel", consumes = MediaType.APPLICATION_JSON_VALUE)
    OrderResponse cancel(@PathVariable UUID id, @RequestBody OrderRequests.CancelOrder request,
                         Authentication caller) {
        OrderId orderId = new OrderId(id);
        // An order never changes hands, so checking before the cancel's own transaction is enough.
        visibleOrder(orderId, Caller.of(caller));
        return OrderResponse.of(cancelOrder.cancelOrder(orderId, request.reason() == null ? "" : request.reason()));
    }

    private OrderDetails visibleOrder(OrderId id, Caller caller) {
        return getOrder.findOrder(id).filter(caller::maySee).orElseThrow(() -> new OrderNotFoundException(id));
    }
}
