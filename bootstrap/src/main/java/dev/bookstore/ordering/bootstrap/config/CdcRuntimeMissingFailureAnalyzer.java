package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.bootstrap.config.CdcRuntimeMissingConfiguration.CdcRuntimeMissingException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says which jar a cdc deployment runs. Registered in {@code META-INF/spring.factories}. */
class CdcRuntimeMissingFailureAnalyzer extends AbstractFailureAnalyzer<CdcRuntimeMissingException> {

    static final String ACTION = """
            Start every instance of a cdc deployment from ordering-service-cdc.jar (built beside \
            ordering-service.jar by ./mvnw package, in bootstrap/target), or run the polling relay \
            (ordering.outbox.relay=polling, the default) with this jar.""";

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, CdcRuntimeMissingException cause) {
        return new FailureAnalysis("""
                ordering.outbox.relay or ordering.outbox.deployment-relay is cdc, but this is \
                ordering-service.jar, which carries no CDC runtime (Debezium, Kafka Connect): nothing would read \
                the outbox from the write-ahead log.""", ACTION, cause);
    }
}
