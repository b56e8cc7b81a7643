package dev.bookstore.ordering.peer;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import tools.jackson.databind.json.JsonMapper;

/**
 * POST /orders as a naive dual write: the order and its lines in one database transaction, then, after the commit,
 * the {@code OrderPlaced} event straight to RabbitMQ. Two writes to two systems with nothing tying them together:
 * a crash or a broker failure between them leaves an order that no one hears of. The service's outbox closes that
 * gap; this peer measures what it costs.
 *
 * <p>{@code peer.confirms=none}: fire and forget, the answer does not wait for the broker. {@code each}: the answer
 * waits for the broker's confirm of this order's message.
 */
@RestController
class OrderController {

    private static final String ROUTING_KEY = "order.placed";
    private static final String TYPE = "bookstore.order-placed.v1";

    record PlaceOrder(UUID customerId, String currency, List<Item> items) {
    }

    record Item(String bookId, Integer quantity, BigDecimal unitPrice) {
    }

    /** The answer (as the service's) and the event's body (as the service's bookstore.order-placed.v1). */
    record Order(UUID id, UUID customerId, String total, String currency, String status, String placedAt,
                 List<Line> items) {
    }

    record OrderPlaced(UUID orderId, UUID customerId, String total, String currency, String placedAt,
                       List<Line> items) {
    }

    record Line(String bookId, int quantity, String unitPrice) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final RabbitTemplate rabbit;
    private final JsonMapper json;
    private final boolean waitForConfirm;
    private final Duration confirmTimeout;

    OrderController(JdbcTemplate jdbc, TransactionTemplate transaction, RabbitTemplate rabbit, JsonMapper json,
                    @Value("${peer.confirms}") String confirms, @Value("${peer.confirm-timeout}") Duration timeout) {
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.rabbit = rabbit;
        this.json = json;
        this.waitForConfirm = switch (confirms) {
            case "none" -> false;
            case "each" -> true;
            default -> throw new IllegalArgumentException("peer.confirms: none or each, not " + confirms);
        };
        this.confirmTimeout = timeout;
    }

    @PostMapping(path = "/orders", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Order> place(@RequestBody PlaceOrder request, @AuthenticationPrincipal Jwt caller)
            throws Exception {
        List<Line> lines = validLines(request);
        if (!request.customerId().toString().equals(caller.getSubject())) {
            throw new ResponseStatusException(HttpStatus.FORBIDDEN); // a customer orders as itself, as in the service
        }
        UUID id = UUID.randomUUID();
        Instant placedAt = Instant.now();
        BigDecimal total = request.items().stream()
                .map(item -> item.unitPrice().multiply(BigDecimal.valueOf(item.quantity())))
                .reduce(BigDecimal.ZERO, BigDecimal::add);
        Order order = new Order(id, request.customerId(), total.toPlainString(), request.currency(), "PLACED",
                placedAt.toString(), lines);

        // 1. The database: the order and its lines, one transaction.
        transaction.executeWithoutResult(status -> {
            jdbc.update("INSERT INTO orders (id, customer_id, currency, total, status, placed_at, version)"
                            + " VALUES (?, ?, ?, ?, 'PLACED', ?, 0)",
                    id, request.customerId(), request.currency(), total,
                    OffsetDateTime.ofInstant(placedAt, ZoneOffset.UTC));
            List<Object[]> rows = new ArrayList<>();
            for (int i = 0; i < request.items().size(); i++) {
                Item item = request.items().get(i);
                rows.add(new Object[] {id, i + 1, item.bookId(), item.quantity(), item.unitPrice()});
            }
            jdbc.batchUpdate("INSERT INTO order_line (order_id, line_no, book_id, quantity, unit_price)"
                    + " VALUES (?, ?, ?, ?, ?)", rows);
        });

        // 2. The broker, after the commit. From here on the order exists whatever happens to its event: if the
        // process dies now, or the broker refuses or loses the message, the order stays placed and no one is told.
        String messageId = UUID.randomUUID().toString();
        Message message = MessageBuilder
                .withBody(json.writeValueAsBytes(new OrderPlaced(id, request.customerId(), order.total(),
                        order.currency(), order.placedAt(), lines)))
                .setContentType(MessageProperties.CONTENT_TYPE_JSON)
                .setDeliveryMode(MessageDeliveryMode.PERSISTENT)
                .setMessageId(messageId)
                .setCorrelationId(id.toString())
                .setType(TYPE)
                .build();
        if (waitForConfirm) {
            CorrelationData correlation = new CorrelationData(messageId);
            rabbit.send(PeerApplication.EXCHANGE, ROUTING_KEY, message, correlation);
            if (!confirmed(correlation)) {
                // The dual-write problem, visible: the order is committed, its event was refused or not confirmed
                // in time, and nothing will send it again. All the client learns is this 503.
                return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).build();
            }
        } else {
            rabbit.send(PeerApplication.EXCHANGE, ROUTING_KEY, message);
        }
        return ResponseEntity.created(URI.create("/orders/" + id)).body(order);
    }

    private boolean confirmed(CorrelationData correlation) throws Exception {
        try {
            return correlation.getFuture().get(confirmTimeout.toMillis(), TimeUnit.MILLISECONDS).ack();
        } catch (TimeoutException e) {
            return false;
        }
    }

    /** A minimal check of the body: 400 for anything the service would refuse for its shape. */
    private static List<Line> validLines(PlaceOrder request) {
        if (request.customerId() == null || request.currency() == null || !request.currency().matches("[A-Z]{3}")
                || request.items() == null || request.items().isEmpty() || request.items().size() > 100) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST);
        }
        List<Line> lines = new ArrayList<>();
        for (Item item : request.items()) {
            if (item == null || item.bookId() == null || item.bookId().isBlank() || item.bookId().length() > 64
                    || item.quantity() == null || item.quantity() < 1 || item.quantity() > 1000
                    || item.unitPrice() == null || item.unitPrice().signum() <= 0) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST);
            }
            lines.add(new Line(item.bookId(), item.quantity(), item.unitPrice().toPlainString()));
        }
        return lines;
    }
}
