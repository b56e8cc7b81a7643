package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.adapters.persistence.Database;

/** {@code ordering.outbox.relay=cdc} on a database whose write-ahead log the CDC relay cannot read. */
class CdcNeedsPostgresException extends IllegalStateException {

    private final transient Database database;

    CdcNeedsPostgresException(Database database) {
        super("ordering.outbox.relay=cdc reads the outbox from PostgreSQL's write-ahead log; the database is "
                + database);
        this.database = database;
    }

    Database database() {
        return database;
    }
}
