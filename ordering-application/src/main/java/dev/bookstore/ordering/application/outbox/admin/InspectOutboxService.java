package dev.bookstore.ordering.application.outbox.admin;

import java.util.List;
import java.util.UUID;

public final class InspectOutboxService implements InspectOutboxQuery {

    private final OutboxAdministration outbox;

    public InspectOutboxService(OutboxAdministration outbox) {
        this.outbox = outbox;
    }

    @Override
    public ParkedPage parkedMessages(long afterPosition, int limit) {
        if (limit < 1 || limit > MAX_PAGE_SIZE || afterPosition < 0) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_PAGE_SIZE + " and afterPosition at "
                    + "least 0, got " + limit + " and " + afterPosition);
        }
        List<OutboxEntry> items = outbox.parked(afterPosition, limit);
        Long next = items.size() < limit ? null : items.get(items.size() - 1).message().position();
        return new ParkedPage(items, next);
    }

    @Override
    public OutboxEntry message(UUID id) {
        return outbox.find(id).orElseThrow(() -> new OutboxMessageNotFoundException(id));
    }
}
