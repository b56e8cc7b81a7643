package dev.bookstore.ordering.application.outbox.capture;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Publishes outbox messages read from the database's change log (CDC), in the order they were committed. The
 * caller commits its read position only past the messages this settles, so what is not settled is read again.
 */
public interface RelayCapturedMessagesUseCase {

    /**
     * Publishes {@code messages} (log order) with confirms and answers how many of them, from the first, are
     * settled: confirmed, or parked after their last allowed failure. The rest, from the first unsettled one on, must
     * be offered again, not before {@link CapturedRound#retryAfter()}.
     *
     * @param stopSending answers true once the caller stops: nothing further is sent, confirms in flight are awaited
     */
    CapturedRound relay(List<OutboxMessage> messages, BooleanSupplier stopSending);
}
