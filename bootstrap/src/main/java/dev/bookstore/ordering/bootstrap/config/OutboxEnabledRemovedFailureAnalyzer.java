package dev.bookstore.ordering.bootstrap.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A start whose configuration still sets {@code ordering.outbox.enabled} ends with one message that names its
 * replacement, never with a silent choice of relay. Registered in {@code META-INF/spring.factories}.
 */
class OutboxEnabledRemovedFailureAnalyzer extends AbstractFailureAnalyzer<OutboxEnabledRemovedException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, OutboxEnabledRemovedException cause) {
        return new FailureAnalysis("""
                ordering.outbox.enabled is set, but the service no longer reads it: ordering.outbox.relay chooses \
                which relay this instance runs.""", """
                Remove ordering.outbox.enabled. Where it was false, set ordering.outbox.relay=none; where it was \
                true, leave ordering.outbox.relay unset (polling) or set it to polling or cdc.""", cause);
    }
}
