package dev.bookstore.ordering.adapters.messaging.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.Connection;
import org.springframework.amqp.rabbit.connection.ConnectionBlockedEvent;
import org.springframework.amqp.rabbit.connection.ConnectionUnblockedEvent;
import org.springframework.context.support.StaticApplicationContext;

/** The gate the relay checks before claiming, driven by Spring AMQP's blocked and unblocked events. */
class BlockedConnectionsTest {

    private final BlockedConnections gate = new BlockedConnections(() -> { });
    private final AtomicBoolean publisherOpen = new AtomicBoolean(true);
    private final Connection publisherConnection = connection(publisherOpen);
    private final Connection consumerConnection = connection(new AtomicBoolean(true));

    /** The events only carry the connection; an inert stand-in that says whether it is open is enough. */
    private static Connection connection(AtomicBoolean open) {
        return (Connection) Proxy.newProxyInstance(BlockedConnectionsTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "isOpen" -> open.get();
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "connection";
                    default -> null;
                });
    }

    @Test
    void openUntilABlockThenClosedWithTheBrokersReasonUntilEveryBlockedConnectionIsUnblocked() {
        assertThat(gate.blockedBecause()).isEmpty();

        gate.blocked(publisherConnection, "low on memory");
        gate.blocked(consumerConnection, "low on memory");
        assertThat(gate.blockedBecause()).contains("low on memory");

        gate.unblocked(publisherConnection);
        assertThat(gate.blockedBecause()).contains("low on memory");
        gate.unblocked(consumerConnection);
        assertThat(gate.blockedBecause()).isEmpty();
    }

    @Test
    void theLastUnblockRunsTheCallbackOnce() {
        AtomicInteger woken = new AtomicInteger();
        BlockedConnections waking = new BlockedConnections(woken::incrementAndGet);
        waking.blocked(publisherConnection, "low on memory");
        waking.blocked(consumerConnection, "low on memory");

        waking.unblocked(publisherConnection);
        assertThat(woken).hasValue(0);
        waking.unblocked(consumerConnection);
        waking.unblocked(consumerConnection); // a repeated unblock is not a new end of the block
        assertThat(woken).hasValue(1);
    }

    @Test
    void aBlockWithoutAReasonStillCloses() {
        gate.blocked(publisherConnection, null);

        assertThat(gate.blockedBecause()).contains("connection.blocked");
    }

    @Test
    void aBlockedConnectionThatClosedNoLongerHoldsTheGateShut() {
        gate.blocked(publisherConnection, "low on disk");

        publisherOpen.set(false);

        assertThat(gate.blockedBecause()).isEmpty();
    }

    @Test
    void listensToTheEventsSpringAmqpPublishesThroughTheApplicationContext() {
        try (StaticApplicationContext context = new StaticApplicationContext()) {
            context.addApplicationListener(gate);
            context.refresh();

            context.publishEvent(new ConnectionBlockedEvent(publisherConnection, "disk alarm"));
            assertThat(gate.blockedBecause()).contains("disk alarm");

            context.publishEvent(new ConnectionUnblockedEvent(publisherConnection));
            assertThat(gate.blockedBecause()).isEmpty();
        }
    }
}
