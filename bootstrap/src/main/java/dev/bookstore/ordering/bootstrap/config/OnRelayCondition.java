package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches {@link ConditionalOnRelay} against the relay the environment names, with Spring's relaxed binding. */
class OnRelayCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnRelay.class.getName());
        Relay[] wanted = (Relay[]) attributes.get("value");
        Relay configured = relay(context.getEnvironment());
        String message = "ordering.outbox relay is " + configured.name().toLowerCase();
        return java.util.Arrays.asList(wanted).contains(configured) ? ConditionOutcome.match(message)
                : ConditionOutcome.noMatch(message);
    }

    /** The relay as {@link OutboxProperties#relayMode()} will see it once the properties are bound. */
    static Relay relay(Environment environment) {
        Binder binder = Binder.get(environment);
        Relay relay = binder.bind("ordering.outbox.relay", Relay.class).orElse(Relay.POLLING);
        boolean enabled = binder.bind(OutboxProperties.ENABLED_ALIAS, Boolean.class).orElse(true);
        return enabled ? relay : Relay.NONE;
    }
}
