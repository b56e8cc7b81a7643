package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * A bean or configuration that exists only where the deployment reads the outbox with the given relay,
 * {@code ordering.outbox.deployment-relay} (by default this instance's own relay, polling where it is none): what
 * the statistics, the health component, the retention and the operator API do follows it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Conditional(OnRelayCondition.class)
@interface ConditionalOnDeploymentRelay {

    /** The deployment's relay this exists for: polling or cdc. */
    Relay value();
}
