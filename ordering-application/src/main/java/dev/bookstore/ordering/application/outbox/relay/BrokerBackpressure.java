package dev.bookstore.ordering.application.outbox.relay;

import java.util.Optional;

/**
 * Whether the broker accepts publishes right now. A broker under a resource alarm (RabbitMQ: memory or disk,
 * {@code connection.blocked}) stops reading from publishing connections; a relay that claimed a batch then would
 * only wait while its leases run out, so it claims nothing until the broker takes publishes again.
 */
@FunctionalInterface
public interface BrokerBackpressure {

    /** A broker that never pushes back. */
    BrokerBackpressure NONE = Optional::empty;

    /** Why the broker refuses publishes now, or empty while it accepts them. */
    Optional<String> blockedBecause();
}
