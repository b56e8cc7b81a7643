package dev.bookstore.ordering.application.outbox.admin;

/** Counts the outbox for operators: one query, whatever it is asked for. */
public interface OutboxStatistics {

    /** The counts, and the age of the oldest pending message since the database stored it. */
    OutboxStats count();
}
