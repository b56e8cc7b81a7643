package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One outbox row as an operator sees it: the message and where it is in its life.
 *
 * @param lastError why the last delivery failed, or null
 * @param createdAt when the row entered the line, by the database's clock: stored, or made pending again by an
 *                  operator (requeue, resend, replay)
 * @param publishedAt when the broker confirmed it, by the database's clock; null unless {@link Status#PUBLISHED}
 * @param parkedAt when it was parked, by the database's clock; null unless parked, and for rows parked by a
 *                 release before this column existed
 */
public record OutboxEntry(OutboxMessage message, Status status, String lastError, Instant createdAt,
                          Instant publishedAt, Instant parkedAt) {

    /** Where a row is in its life. */
    public enum Status { PENDING, PUBLISHED, PARKED }

    public OutboxEntry {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    public UUID id() {
        return message.id();
    }
}
