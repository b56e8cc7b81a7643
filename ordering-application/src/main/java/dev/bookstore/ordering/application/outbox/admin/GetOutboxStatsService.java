package dev.bookstore.ordering.application.outbox.admin;

import dev.bookstore.ordering.application.outbox.relay.OutboxStore;

public final class GetOutboxStatsService implements GetOutboxStatsQuery {

    private final OutboxStore outbox;

    public GetOutboxStatsService(OutboxStore outbox) {
        this.outbox = outbox;
    }

    @Override
    public OutboxStats outboxStats() {
        return outbox.stats();
    }
}
