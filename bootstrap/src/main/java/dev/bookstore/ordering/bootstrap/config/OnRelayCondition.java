package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import java.util.Arrays;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches {@link ConditionalOnRelay} and {@link ConditionalOnDeploymentRelay} against the relays the environment
 * names, with Spring's relaxed binding.
 */
class OnRelayCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Map<String, Object> instance = metadata.getAnnotationAttributes(ConditionalOnRelay.class.getName());
        Map<String, Object> deployment =
                metadata.getAnnotationAttributes(ConditionalOnDeploymentRelay.class.getName());
        if (instance != null) {
            ConditionOutcome outcome = outcome("relay", relay(context.getEnvironment()),
                    (Relay[]) instance.get("value"));
            if (!outcome.isMatch() || deployment == null) {
                return outcome;
            }
        }
        return outcome("deployment-relay", deploymentRelay(context.getEnvironment()),
                (Relay) deployment.get("value"));
    }

    private static ConditionOutcome outcome(String property, Relay configured, Relay... wanted) {
        String message = "ordering.outbox." + property + " is " + configured.name().toLowerCase();
        return Arrays.asList(wanted).contains(configured) ? ConditionOutcome.match(message)
                : ConditionOutcome.noMatch(message);
    }

    /**
     * The relay as {@link OutboxProperties#relay()} will see it once the properties are bound. A configuration that
     * still sets the removed {@code ordering.outbox.enabled} stops the start here, before any relay is chosen, rather
     * than run a relay its author may have switched off.
     */
    static Relay relay(Environment environment) {
        Binder binder = Binder.get(environment);
        if (binder.bind(OutboxEnabledRemovedException.PROPERTY, String.class).isBound()) {
            throw new OutboxEnabledRemovedException();
        }
        return binder.bind("ordering.outbox.relay", Relay.class).orElse(Relay.POLLING);
    }

    /** The deployment's relay as {@link OutboxProperties#deploymentRelayMode()} will see it. */
    static Relay deploymentRelay(Environment environment) {
        return OutboxProperties.deploymentRelayOf(relay(environment),
                Binder.get(environment).bind("ordering.outbox.deployment-relay", Relay.class).orElse(null));
    }
}
