package dev.bookstore.ordering.application.testing;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.domain.shared.UuidV7;
import java.time.Instant;
import java.util.Map;

/** Outbox messages for tests: shaped like an {@code OrderPlaced} row, with a version 7 id made at occurredAt. */
public final class OutboxMessages {

    private OutboxMessages() {
    }

    /** A new message (no attempts yet) of the order with this aggregate id. */
    public static OutboxMessage orderPlaced(String aggregateId, Instant occurredAt) {
        return new OutboxMessage(UuidV7.at(occurredAt), "order", aggregateId, "bookstore.order-placed.v1",
                "bookstore.ordering", "order.placed", "{\"orderId\":\"" + aggregateId + "\"}",
                Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"), occurredAt, 0);
    }
}
