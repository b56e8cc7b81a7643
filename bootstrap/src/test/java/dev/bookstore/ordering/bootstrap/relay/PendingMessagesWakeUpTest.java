package dev.bookstore.ordering.bootstrap.relay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import dev.bookstore.ordering.application.outbox.relay.RelayWakeUp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A count of the outbox rings the relays while messages are pending, and counts again when a lease ends. */
class PendingMessagesWakeUpTest {

    private static final Duration REFRESH = Duration.ofSeconds(2);

    private final RelayWakeUp wakeUp = new RelayWakeUp();
    private final List<Duration> extraCounts = new ArrayList<>();
    private final PendingMessagesWakeUp listener = new PendingMessagesWakeUp(wakeUp, REFRESH, extraCounts::add);

    @Test
    void pendingMessagesRingTheRelaysAndAnEmptyOutboxDoesNot() {
        listener.accept(new OutboxStats(0, 3, 10, Duration.ZERO));
        assertThat(wakeUp.rings()).as("parked only: nothing to claim").isZero();

        listener.accept(new OutboxStats(2, 0, 10, Duration.ofMillis(5)));
        assertThat(wakeUp.rings()).isEqualTo(1);
        assertThat(extraCounts).as("no lease").isEmpty();
    }

    @Test
    void aLeaseEndingBeforeTheNextCountGetsACountJustAfterItsEnd() {
        listener.accept(new OutboxStats(100, 0, 0, Duration.ofSeconds(4), Duration.ofMillis(1_500)));

        assertThat(extraCounts).containsExactly(Duration.ofMillis(1_500).plus(PendingMessagesWakeUp.AFTER_LEASE_END));
    }

    @Test
    void aLeaseEndingAfterTheNextCountIsLeftToThatCount() {
        listener.accept(new OutboxStats(100, 0, 0, Duration.ofSeconds(4), REFRESH));
        listener.accept(new OutboxStats(100, 0, 0, Duration.ofSeconds(4), Duration.ofSeconds(55)));

        assertThat(extraCounts).isEmpty();
        assertThat(wakeUp.rings()).isEqualTo(2);
    }
}
