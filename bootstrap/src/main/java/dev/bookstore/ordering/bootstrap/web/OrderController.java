package dev.bookstore.ordering.bootstrap.web;

import dev.bookstore.ordering.application.port.in.CancelOrderUseCase;
import dev.bookstore.ordering.application.port.in.GetOrderQuery;
import dev.bookstore.ordering.application.port.in.OrderDetails;
import dev.bookstore.ordering.application.port.in.OrderNotFoundException;
import dev.bookstore.ordering.application.port.in.PlaceOrderUseCase;
import dev.bookstore.ordering.domain.order.OrderId;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
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

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<OrderResponse> place(@RequestBody OrderRequests.PlaceOrder request) {
        OrderDetails order = placeOrder.placeOrder(request.toCommand());
        return ResponseEntity.created(URI.create("/orders/" + order.id())).body(OrderResponse.of(order));
    }

    @GetMapping("/{id}")
    OrderResponse get(@PathVariable UUID id) {
        OrderId orderId = new OrderId(id);
        return getOrder.findOrder(orderId).map(OrderResponse::of)
                .orElseThrow(() -> new OrderNotFoundException(orderId));
    }

    private static final String LIMIT_RANGE = "must be between 1 and " + GetOrderQuery.MAX_RECENT_ORDERS;

    /** A limit out of 1..100 is a 400 naming {@code limit}: Spring MVC validates the constraints before the call. */
    @GetMapping
    List<OrderResponse> recent(@RequestParam(defaultValue = "20") @Min(value = 1, message = LIMIT_RANGE)
                               @Max(value = GetOrderQuery.MAX_RECENT_ORDERS, message = LIMIT_RANGE) int limit) {
        return getOrder.recentOrders(limit).stream().map(OrderResponse::of).toList();
    }

    @PostMapping(path = "/{id}/cancel", consumes = MediaType.APPLICATION_JSON_VALUE)
    OrderResponse cancel(@PathVariable UUID id, @RequestBody OrderRequests.CancelOrder request) {
        return OrderResponse.of(cancelOrder.cancelOrder(new OrderId(id), request.reason() == null ? "" : request.reason()));
    }
}
