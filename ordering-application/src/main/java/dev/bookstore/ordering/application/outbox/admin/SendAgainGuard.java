package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.application.outbox.capture.CaptureLagProbe;

/**
 * Asked before an operator sends messages again. An instance that runs no relay and was not told the deployment's
 * sends again as for polling relays, by making rows pending: a change stream, which reads inserts only, never sees
 * that. Such an instance refuses while the configured replication slot is being read, rather than answer that a
 * message is queued that no relay would send.
 */
@FunctionalInterface
public interface SendAgainGuard {

    /** Nothing to refuse: this instance knows which relay reads the outbox. */
    SendAgainGuard NONE = () -> {
    };

    /** @throws UnseenChangeException when no relay would see the change */
    void check();

    /** Refuses while a reader streams from the slot that {@code slot} measures. */
    static SendAgainGuard unlessSlotIsRead(CaptureLagProbe slot, String slotName) {
        return () -> {
            if (slot.measure().reading()) {
                throw new UnseenChangeException(slotName);
            }
        };
    }
}
