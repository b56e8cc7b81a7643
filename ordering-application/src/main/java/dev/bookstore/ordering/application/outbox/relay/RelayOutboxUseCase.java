package dev.bookstore.ordering.application.outbox.relay;


/** Moves outbox messages to the broker; driven by a worker thread of each running instance. */
public interface RelayOutboxUseCase {

    /** Claims one batch, publishes it, records the outcomes. */
    RelayRound relayBatch();

    /**
     * Relays batches for as long as they come back full (in ordered mode: for as long as they bring anything),
     * so a backlog drains without waiting for a poll. Stops early while the broker is unavailable.
     */
    RelayRound drain();

    /**
     * Graceful shutdown: from now on nothing more is claimed, the batch in flight sends no further message and
     * waits (at most the confirm timeout) for the confirms of what it sent; its outcomes are recorded, and what
     * was not sent or got no confirm is released without counting an attempt. Returns at once; the thread in
     * {@link #drain()} or {@link #relayBatch()} returns when the batch is settled.
     */
    void stopClaiming();

    /** Claims again after {@link #stopClaiming()} (a restarted worker). */
    void resumeClaiming();

    /**
     * Whether the last round found the broker unavailable and it has not been seen back since. While it is, the
     * worker calls {@link #relayBatch()} again after a short probe interval rather than its poll: a round then
     * only checks whether the broker is reachable again, claiming nothing until it is.
     */
    default boolean brokerUnavailable() {
        return false;
    }
}
