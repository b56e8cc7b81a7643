package dev.bookstore.ordering.application.outbox.admin;


/** What operators watch: how many messages wait, how many are parked, how old the oldest waiting one is. */
public interface GetOutboxStatsQuery {

    OutboxStats outboxStats();
}
