package dev.bookstore.ordering.application.port.in;

import dev.bookstore.ordering.application.outbox.RelayRound;

/** Moves outbox messages to the broker; driven by a worker thread of each running instance. */
public interface RelayOutboxUseCase {

    /** Claims one batch, publishes it, records the outcomes. */
    RelayRound relayBatch();

    /**
     * Relays batches for as long as they come back full (in ordered mode: for as long as they bring anything),
     * so a backlog drains without waiting for a poll. Stops early while the broker is unavailable.
     */
    RelayRound drain();
}
