package dev.bookstore.ordering.application.outbox.admin;

public final class GetOutboxStatsService implements GetOutboxStatsQuery {

    private final OutboxStatistics statistics;

    public GetOutboxStatsService(OutboxStatistics statistics) {
        this.statistics = statistics;
    }

    @Override
    public OutboxStats outboxStats() {
        return statistics.count();
    }
}
