package dev.bookstore.ordering.application.outbox.capture;

import java.util.Objects;
import java.util.UUID;

/**
 * A change read from the outbox's log that does not parse as an outbox message (a bad id, headers that are no JSON
 * object, a time that does not parse): kept as read, for an operator.
 *
 * @param id the row's id where it parsed, else null
 * @param position the row's position where it was read, else 0
 * @param raw the change as read: its key, headers and value as text
 * @param error why it does not parse
 */
public record UnreadableChange(UUID id, long position, String raw, String error) {

    public UnreadableChange {
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(error, "error");
    }
}
