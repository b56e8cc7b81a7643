package dev.bookstore.ordering.bootstrap.config;

/** A configuration that still sets {@code ordering.outbox.enabled}, which {@code ordering.outbox.relay} replaced. */
class OutboxEnabledRemovedException extends IllegalStateException {

    static final String PROPERTY = "ordering.outbox.enabled";

    OutboxEnabledRemovedException() {
        super(PROPERTY + " is no longer read: ordering.outbox.relay chooses the relay (polling, cdc or none)");
    }
}
