package dev.bookstore.ordering.bootstrap.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A start in cdc mode on another database than PostgreSQL ends with one message that says why and what to set
 * instead. Registered in {@code META-INF/spring.factories}.
 */
class CdcNeedsPostgresFailureAnalyzer extends AbstractFailureAnalyzer<CdcNeedsPostgresException> {

    static final String ACTION = """
            Run the polling relay on this database (ordering.outbox.relay=polling, the default), or move the \
            service to PostgreSQL with wal_level=logical to use ordering.outbox.relay=cdc.""";

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, CdcNeedsPostgresException cause) {
        return new FailureAnalysis("""
                ordering.outbox.relay is cdc, but the database is %s. The CDC relay reads the outbox from \
                PostgreSQL's write-ahead log through logical decoding; no other database is supported in this \
                mode.""".formatted(cause.database()), ACTION, cause);
    }
}
