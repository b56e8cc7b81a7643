package dev.bookstore.ordering.consumer;

import java.util.UUID;

/**
 * What a consumer has already processed. Recording joins the caller's transaction, so a message counts as processed
 * exactly when the work it caused commits.
 */
public interface InboxStore {

    /** Records the message for the consumer; false if it was recorded before (a redelivery to drop). */
    boolean recordFirstDelivery(String consumer, UUID messageId);
}
