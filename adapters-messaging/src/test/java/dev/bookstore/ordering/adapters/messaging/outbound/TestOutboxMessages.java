package dev.bookstore.ordering.adapters.messaging.outbound;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import dev.bookstore.ordering.domain.shared.Money;
import dev.bookstore.ordering.domain.shared.UuidV7;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** Outbox messages as the service writes them: real {@code OrderPlaced} events through the real contract. */
public final class TestOutboxMessages {

    private TestOutboxMessages() {
    }

    /** {@code count} order-placed messages for {@code exchange}, each with its own W3C traceparent header. */
    public static List<OutboxMessage> orderPlaced(String exchange, int count) {
        OrderEventContract contract = new OrderEventContract(exchange);
        List<OutboxMessage> messages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            OrderPlaced event = orderPlacedEvent();
            messages.add(contract.externalize(event).orElseThrow().toOutboxMessage(event, Map.of(
                    "traceparent", traceparent(),
                    "x-test-index", String.valueOf(i))));
        }
        return messages;
    }

    /** One order-placed message for {@code exchange}. */
    public static OutboxMessage orderPlaced(String exchange) {
        return orderPlaced(exchange, 1).get(0);
    }

    /** The same message, sent somewhere else: another exchange and routing key. */
    public static OutboxMessage redirected(OutboxMessage message, String exchange, String routingKey) {
        return new OutboxMessage(message.id(), message.aggregateType(), message.aggregateId(), message.type(),
                exchange, routingKey, message.payload(), message.headers(), message.occurredAt(),
                message.attempts());
    }

    /**
     * The same message with a header RabbitMQ refuses: {@code CC} must be an array of routing keys, and a string
     * makes the broker close the channel with 406 PRECONDITION_FAILED.
     */
    public static OutboxMessage poisoned(OutboxMessage message) {
        Map<String, String> headers = new HashMap<>(message.headers());
        headers.put("CC", "not-an-array");
        return new OutboxMessage(message.id(), message.aggregateType(), message.aggregateId(), message.type(),
                message.exchange(), message.routingKey(), message.payload(), headers, message.occurredAt(),
                message.attempts());
    }

    public static OrderPlaced orderPlacedEvent() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        OrderLine line = new OrderLine(new BookId("978-0134494166"), 2, Money.of("19.90", "EUR"));
        return new OrderPlaced(UuidV7.at(now), now, OrderId.newId(now), new CustomerId(UUID.randomUUID()),
                line.lineTotal(), List.of(line));
    }

    static String traceparent() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        byte[] traceId = new byte[16];
        byte[] spanId = new byte[8];
        random.nextBytes(traceId);
        random.nextBytes(spanId);
        return "00-" + HexFormat.of().formatHex(traceId) + "-" + HexFormat.of().formatHex(spanId) + "-01";
    }
}
