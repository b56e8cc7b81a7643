package dev.bookstore.ordering.bootstrap;

import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;

/** The operator's outbox API ({@link OutboxAdminContract}) on a real MariaDB. */
class MariaDbOutboxAdminIT extends OutboxAdminContract {

    @Override
    protected TestEngine engine() {
        return TestEngine.MARIADB;
    }
}
