package dev.bookstore.ordering.application.outbox;

import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.util.Optional;

/**
 * The wire contract: how a domain event that leaves the service is named and serialized (type, exchange, routing
 * key, body). Empty for events the contract does not know, which stay in-process. The application decides what
 * becomes an outbox message ({@code EventOutbox}); the contract only translates.
 */
public interface EventExternalizer {

    Optional<ExternalizedEvent> externalize(DomainEvent event);
}
