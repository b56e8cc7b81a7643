package dev.bookstore.ordering.application.outbox.relay;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import java.time.Duration;

/**
 * What the relay tells whoever measures it, once per message and outcome, after the outcome is written to the
 * outbox. The relay never waits on it and never fails because of it: an implementation must be cheap and must
 * not throw. {@link #NONE} measures nothing.
 */
public interface RelayMetrics {

    /** Measures nothing: the relay without metrics. */
    RelayMetrics NONE = new RelayMetrics() {
    };

    /**
     * The broker confirmed {@code message}.
     *
     * @param publishToConfirm from handing the message's batch to the broker to the last confirm of that batch
     * @param occurredToConfirm from the event's time (taken in the order's transaction, just before its commit, by
     *                          the clock of the instance that placed the order) to the confirm, by this instance's
     *                          clock: across instances it includes the difference between their clocks
     */
    default void published(OutboxMessage message, Duration publishToConfirm, Duration occurredToConfirm) {
    }

    /**
     * A delivery of {@code message} failed with {@code reason} (never {@link Outcome#CONFIRMED}): counted against
     * the message, or, when {@code charged} is false, not (the broker was unavailable and the message is released
     * untried).
     */
    default void failed(OutboxMessage message, Outcome reason, boolean charged) {
    }

    /** {@code message} failed for the last allowed time and is parked for an operator. */
    default void parked(OutboxMessage message) {
    }
}
