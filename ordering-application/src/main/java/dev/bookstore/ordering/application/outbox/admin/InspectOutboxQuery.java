package dev.bookstore.ordering.application.outbox.admin;

import java.util.List;
import java.util.UUID;

/** What an operator reads of the outbox: the parked messages, page by page, and any one message. */
public interface InspectOutboxQuery {

    int MAX_PAGE_SIZE = 500;

    /** A page of parked messages; {@code nextAfter} is the cursor of the next page, null on the last one. */
    record ParkedPage(List<OutboxEntry> items, Long nextAfter) {

        public ParkedPage {
            items = List.copyOf(items);
        }
    }

    /**
     * Parked messages after the position {@code afterPosition} (0 for the first page), at most {@code limit}
     * (1 to {@link #MAX_PAGE_SIZE}).
     */
    ParkedPage parkedMessages(long afterPosition, int limit);

    /** @throws OutboxMessageNotFoundException when there is no such message */
    OutboxEntry message(UUID id);
}
