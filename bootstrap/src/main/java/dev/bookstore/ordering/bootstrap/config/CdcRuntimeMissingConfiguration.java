package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A cdc deployment started from {@code ordering-service.jar}, which carries no Debezium or Kafka Connect: the start
 * stops with one message naming the jar that does ({@link CdcRuntimeMissingFailureAnalyzer}), never a silent
 * instance that relays nothing.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnDeploymentRelay(Relay.CDC)
@ConditionalOnMissingClass(CdcRuntimeMissingConfiguration.CDC_RUNTIME)
class CdcRuntimeMissingConfiguration {

    /** A class of Debezium's embedded engine: present only in {@code ordering-service-cdc.jar}. */
    static final String CDC_RUNTIME = "io.debezium.engine.DebeziumEngine";

    @Bean
    Object cdcRuntime() {
        throw new CdcRuntimeMissingException();
    }

    static final class CdcRuntimeMissingException extends IllegalStateException {

        CdcRuntimeMissingException() {
            super("ordering.outbox.deployment-relay is cdc, but this jar has no CDC runtime (" + CDC_RUNTIME + ")");
        }
    }
}
