package dev.bookstore.ordering.application.port.out;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.Map;
import java.util.Optional;

/**
 * The wire contract: which domain events leave the service, and as what (type, exchange, routing key, JSON
 * payload). Empty for events that stay in-process.
 */
public interface EventExternalizer {

    /**
     * @param headers extra message headers captured when the event is stored, such as the W3C
     *                {@code traceparent}
     */
    Optional<OutboxMessage> externalize(DomainEvent event, Map<String, String> headers);
}
