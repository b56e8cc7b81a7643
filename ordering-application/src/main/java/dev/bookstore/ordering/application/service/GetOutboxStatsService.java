package dev.bookstore.ordering.application.service;

import dev.bookstore.ordering.application.outbox.OutboxStats;
import dev.bookstore.ordering.application.port.in.GetOutboxStatsQuery;
import dev.bookstore.ordering.application.port.out.OutboxStore;

final class GetOutboxStatsService implements GetOutboxStatsQuery {

    private final OutboxStore outbox;

    GetOutboxStatsService(OutboxStore outbox) {
        this.outbox = outbox;
    }

    @Override
    public OutboxStats outboxStats() {
        return outbox.stats();
    }
}
