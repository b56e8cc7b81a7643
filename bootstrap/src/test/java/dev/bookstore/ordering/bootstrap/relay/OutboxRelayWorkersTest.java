package dev.bookstore.ordering.bootstrap.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.application.outbox.relay.RelayOutboxUseCase;
import dev.bookstore.ordering.application.outbox.relay.RelayRound;
import dev.bookstore.ordering.application.outbox.relay.RelayWakeUp;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pace of the workers: probe interval while the broker is away, poll interval otherwise. */
class OutboxRelayWorkersTest {

    private static final Duration HOUR = Duration.ofHours(1);

    /** A relay whose broker is away until {@link #brokerBack}; counts its rounds. */
    private static final class Relay implements RelayOutboxUseCase {
        final AtomicInteger rounds = new AtomicInteger();
        final AtomicBoolean brokerAway = new AtomicBoolean(true);
        final AtomicBoolean released = new AtomicBoolean();

        @Override
        public RelayRound relayBatch() {
            rounds.incrementAndGet();
            return released.getAndSet(false) ? new RelayRound(1, 0, 0, 0, 1) : RelayRound.NOTHING;
        }

        @Override
        public RelayRound drain() {
            return relayBatch();
        }

        @Override
        public boolean brokerUnavailable() {
            return brokerAway.get();
        }

        @Override
        public void stopClaiming() {
        }

        @Override
        public void resumeClaiming() {
        }
    }

    private final Relay relay = new Relay();
    private final RelayWakeUp wakeUp = new RelayWakeUp();
    private final AtomicInteger busyRounds = new AtomicInteger();
    private OutboxRelayWorkers workers;

    @AfterEach
    void stop() {
        if (workers != null) {
            workers.stop();
        }
    }

    private void start(Duration probeInterval) {
        start(probeInterval, Duration.ZERO);
    }

    private void start(Duration probeInterval, Duration linger) {
        // poll intervals of an hour: only the probe interval can explain rounds following each other
        workers = new OutboxRelayWorkers(List.of(relay), wakeUp, HOUR, HOUR, probeInterval, linger,
                Duration.ofSeconds(5), busyRounds::incrementAndGet);
        workers.start();
    }

    @Test
    void theCommitsOfOneLingerLeaveInOneRound() {
        relay.brokerAway.set(false);
        start(Duration.ofMillis(10), Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.rounds.get() >= 1);
        int idle = relay.rounds.get();

        wakeUp.ring();
        // still lingering: no round yet, and the commits of this moment ring meanwhile
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .until(() -> relay.rounds.get() == idle);
        wakeUp.ring();
        wakeUp.ring();

        await().atMost(Duration.ofSeconds(10)).until(() -> relay.rounds.get() == idle + 1);
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
                .until(() -> relay.rounds.get() == idle + 1);
    }

    @Test
    void whileTheBrokerIsAwayAWorkerRunsARoundEveryProbeInterval() {
        start(Duration.ofMillis(10));

        await().atMost(Duration.ofSeconds(10)).until(() -> relay.rounds.get() >= 5);
    }

    @Test
    void onceTheBrokerIsBackAnIdleWorkerWaitsForTheDoorbellAgain() {
        start(Duration.ofMillis(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.rounds.get() >= 2);

        relay.brokerAway.set(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.rounds.get() >= 3);
        int settled = relay.rounds.get();
        // idle now: an hour's poll, so no round without a ring
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .until(() -> relay.rounds.get() <= settled + 1);
        int idle = relay.rounds.get();

        wakeUp.ring();

        await().atMost(Duration.ofSeconds(10)).until(() -> relay.rounds.get() > idle);
    }

    @Test
    void aRoundReleasedWithTheBrokerReachableWaitsThePollIntervalNotTheProbeInterval() {
        relay.brokerAway.set(false);
        relay.released.set(true); // e.g. the broker closed the channel over something it refused
        start(Duration.ofMillis(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.rounds.get() >= 1);

        wakeUp.ring(); // a pause after a released round ignores the doorbell

        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .until(() -> relay.rounds.get() == 1);
    }

    @Test
    void onlyARoundThatClaimedSomethingIsToldAsAChangeOfTheOutbox() {
        relay.brokerAway.set(false);
        start(Duration.ofMillis(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.rounds.get() >= 1);
        wakeUp.ring();
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.rounds.get() >= 2);
        assertThat(busyRounds).as("rounds that claimed nothing").hasValue(0);

        relay.released.set(true); // the next round claims one message
        wakeUp.ring();

        await().atMost(Duration.ofSeconds(10)).until(() -> busyRounds.get() == 1);
    }
}
