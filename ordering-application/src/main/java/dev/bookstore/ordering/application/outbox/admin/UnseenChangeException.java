package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.domain.shared.OrderingException;

/** An operator's change that no relay would see, refused before anything was changed. */
public class UnseenChangeException extends OrderingException {

    public UnseenChangeException(String slotName) {
        super("replication slot " + slotName + " is being read by a change stream, which never sees a row made "
                + "pending again, and this instance runs relay none without ordering.outbox.deployment-relay; "
                + "nothing was changed: set deployment-relay to cdc (beside CDC instances) or polling (while polling "
                + "relays still run), or use an instance that runs a relay");
    }
}
