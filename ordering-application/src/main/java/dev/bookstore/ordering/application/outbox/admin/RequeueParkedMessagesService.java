package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.application.outbox.OutboxCommitListener;
import java.util.List;
import java.util.UUID;

/**
 * Parked messages sent again with a fresh attempt count: made pending ({@link OutboxAdministration#unpark}) for the
 * polling relay, inserted again ({@link OutboxAdministration#insertParkedAgain}) for a relay that reads inserts.
 */
public final class RequeueParkedMessagesService implements RequeueParkedMessagesUseCase {

    private final OutboxAdministration administration;
    private final OutboxCommitListener changes;
    private final RelayReading reading;
    private final int chunk;
    private final SendAgainGuard guard;

    /** @param guard refuses when no relay would see what this instance writes */
    public RequeueParkedMessagesService(OutboxAdministration administration, OutboxCommitListener changes,
                                        RelayReading reading, int chunk, SendAgainGuard guard) {
        if (chunk < 1) {
            throw new IllegalArgumentException("chunk must be positive, got " + chunk);
        }
        this.administration = administration;
        this.changes = changes;
        this.reading = reading;
        this.chunk = chunk;
        this.guard = guard;
    }

    @Override
    public void requeue(UUID id) {
        guard.check();
        if (sendAgain(List.of(id)) == 0) {
            throw OutboxStates.unchanged(administration, id, OutboxEntry.Status.PARKED);
        }
        changes.outboxMessagesCommitted(1);
    }

    /**
     * Page by page by position, up to the last position at the start, so every parked row is seen once however many
     * there are: a row inserted again gets a new position past it, and is not visited again if it is parked again
     * meanwhile.
     */
    @Override
    public int requeueAll() {
        guard.check();
        long last = administration.lastPosition();
        int total = 0;
        long after = 0;
        List<OutboxEntry> page;
        do {
            page = administration.parked(after, chunk).stream()
                    .filter(entry -> entry.message().position() <= last).toList();
            if (!page.isEmpty()) {
                total += sendAgain(page.stream().map(OutboxEntry::id).toList());
                after = page.get(page.size() - 1).message().position();
            }
        } while (page.size() == chunk);
        if (total > 0) {
            changes.outboxMessagesCommitted(total);
        }
        return total;
    }

    private int sendAgain(List<UUID> ids) {
        return reading == RelayReading.INSERTS ? administration.insertParkedAgain(ids) : administration.unpark(ids);
    }
}
