package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * A bean or configuration that exists only where this instance runs the given relays, {@code ordering.outbox.relay}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Conditional(OnRelayCondition.class)
@interface ConditionalOnRelay {

    /** The relays this exists for (any of them). */
    Relay[] value();
}
