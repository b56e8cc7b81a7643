package dev.bookstore.ordering.application.outbox;

import java.time.Duration;

/** What the retention job removes from the outbox: published messages, never pending or parked ones. */
public interface OutboxRetention {

    /**
     * Deletes up to {@code limit} messages published more than {@code age} ago, by the database's clock (the one
     * that stamped them published); returns how many.
     */
    int deletePublishedOlderThan(Duration age, int limit);
}
