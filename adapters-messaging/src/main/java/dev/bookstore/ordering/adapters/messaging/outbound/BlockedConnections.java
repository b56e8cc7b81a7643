package dev.bookstore.ordering.adapters.messaging.outbound;

import dev.bookstore.ordering.application.outbox.relay.BrokerBackpressure;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.amqp.event.AmqpEvent;
import org.springframework.amqp.rabbit.connection.Connection;
import org.springframework.amqp.rabbit.connection.ConnectionBlockedEvent;
import org.springframework.amqp.rabbit.connection.ConnectionUnblockedEvent;
import org.springframework.context.ApplicationListener;

/**
 * The broker's push-back as the relay sees it: RabbitMQ sends {@code connection.blocked} to publishing
 * connections while a memory or disk alarm is raised, and {@code connection.unblocked} when it clears. Spring AMQP's
 * {@code CachingConnectionFactory} (also its separate publisher connection factory) turns these into
 * {@link ConnectionBlockedEvent} and {@link ConnectionUnblockedEvent} application events; as an application
 * listener this class keeps the connections blocked now, with the broker's reason. A blocked connection that closes
 * (no unblock will ever come for it) stops counting: its replacement is blocked anew if the alarm still holds.
 */
public final class BlockedConnections implements BrokerBackpressure, ApplicationListener<AmqpEvent> {

    /** Blocked connections and the reason the broker gave. */
    private final Map<Connection, String> blocked = new ConcurrentHashMap<>();
    private final Runnable whenUnblocked;

    /** @param whenUnblocked run when the last blocked connection is unblocked, e.g. to wake the relays at once */
    public BlockedConnections(Runnable whenUnblocked) {
        this.whenUnblocked = whenUnblocked;
    }

    @Override
    public void onApplicationEvent(AmqpEvent event) {
        if (event instanceof ConnectionBlockedEvent block) {
            blocked(block.getConnection(), block.getReason());
        } else if (event instanceof ConnectionUnblockedEvent unblock) {
            unblocked(unblock.getConnection());
        }
    }

    void blocked(Connection connection, String reason) {
        blocked.put(connection, reason == null || reason.isBlank() ? "connection.blocked" : reason);
    }

    void unblocked(Connection connection) {
        if (blocked.remove(connection) != null && blocked.isEmpty()) {
            whenUnblocked.run();
        }
    }

    @Override
    public Optional<String> blockedBecause() {
        blocked.keySet().removeIf(connection -> !connection.isOpen());
        return blocked.values().stream().findFirst();
    }
}
