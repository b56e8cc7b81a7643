package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.util.List;

/**
 * Runs after the broker confirmed a run of captured messages and before the engine commits its offsets past them.
 * A failure here leaves the offsets where they were: those messages are read, and sent, again. The crash tests
 * fail here on purpose; the service wires {@link #NONE}.
 */
@FunctionalInterface
public interface BeforeOffsetCommit {

    BeforeOffsetCommit NONE = messages -> { };

    void confirmed(List<OutboxMessage> messages);
}
