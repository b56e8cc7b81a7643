package dev.bookstore.ordering.bootstrap;

import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;

/** Retention ({@link RetentionContract}) on a real MariaDB. */
class MariaDbRetentionIT extends RetentionContract {

    @Override
    protected TestEngine engine() {
        return TestEngine.MARIADB;
    }
}
