package dev.bookstore.ordering.application.outbox.admin;

import java.util.UUID;

/**
 * Why an operator's change of one message changed nothing: each change is one statement that names the state it
 * expects; when it matched no row, the row is read to tell "not there" (404) from "in another state" (409).
 */
final class OutboxStates {

    private OutboxStates() {
    }

    static RuntimeException unchanged(OutboxAdministration outbox, UUID id, OutboxEntry.Status expected) {
        return outbox.find(id)
                .<RuntimeException>map(entry -> new OutboxMessageStateException(id, entry.status(), expected))
                .orElseGet(() -> new OutboxMessageNotFoundException(id));
    }
}
