package dev.bookstore.ordering.application.outbox.admin;

/**
 * What the deployment's relay reads, which decides how an operator sends a message again: the state of a row
 * tells nothing to a relay that reads only inserts.
 */
public enum RelayReading {

    /**
     * The polling relay claims pending rows and marks them published: a message goes out again when its row is made
     * pending; sent messages are the published rows.
     */
    PENDING_ROWS,

    /**
     * A change-data-capture reader (the CDC relay, or Debezium outside the service) sends every inserted row and
     * never marks one: a message goes out again when its row is inserted again, with the same id and content; sent
     * messages are the rows not parked (those it has not reached yet are sent once more). PostgreSQL only.
     */
    INSERTS
}
