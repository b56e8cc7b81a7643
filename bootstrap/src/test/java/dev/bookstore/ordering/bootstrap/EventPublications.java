package dev.bookstore.ordering.bootstrap;

import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;

/** Spring Modulith's event publication registry as a test's SQL names it on each engine. */
final class EventPublications {

    private EventPublications() {
    }

    /**
     * The registry's table: Spring Modulith's SQL names it in capitals, which MariaDB's case-sensitive table names
     * keep, and PostgreSQL folds to lower case.
     */
    static String table(TestEngine engine) {
        return switch (engine) {
            case POSTGRESQL -> "event_publication";
            case MARIADB -> "EVENT_PUBLICATION";
        };
    }
}
