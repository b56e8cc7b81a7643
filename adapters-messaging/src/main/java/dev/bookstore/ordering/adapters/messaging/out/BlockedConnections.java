package dev.bookstore.ordering.adapters.messaging.out;

import dev.bookstore.ordering.application.port.out.BrokerBackpressure;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.amqp.event.AmqpEvent;
import org.springframework.amqp.rabbit.connection.ConnectionBlockedEvent;
import org.springframework.amqp.rabbit.connection.ConnectionUnblockedEvent;
import org.springframework.context.ApplicationListener;

/**
 * The broker's push-back as the relay sees it: RabbitMQ sends {@code connection.blocked} to publishing
 * connections while a memory or disk alarm is raised, and {@code connection.unblocked} when it clears. Spring AMQP's
 * {@code CachingConnectionFactory} (also its separate publisher connection factory) turns these into
 * {@link ConnectionBlockedEvent} and {@link ConnectionUnblockedEvent} application events; as an application
 * listener this class keeps the connections blocked now, with the broker's reason.
 */
public final class BlockedConnections implements BrokerBackpressure, ApplicationListener<AmqpEvent> {

    /** Blocked connections (by identity) and the reason the broker gave. */
    private final Map<Object, String> blocked = new ConcurrentHashMap<>();

    @Override
    public void onApplicationEvent(AmqpEvent event) {
        if (event instanceof ConnectionBlockedEvent block) {
            blocked(block.getConnection(), block.getReason());
        } else if (event instanceof ConnectionUnblockedEvent unblock) {
            unblocked(unblock.getConnection());
        }
    }

    void blocked(Object connection, String reason) {
        blocked.put(connection, reason == null || reason.isBlank() ? "connection.blocked" : reason);
    }

    void unblocked(Object connection) {
        blocked.remove(connection);
    }

    @Override
    public Optional<String> blockedBecause() {
        return blocked.values().stream().findFirst();
    }
}
