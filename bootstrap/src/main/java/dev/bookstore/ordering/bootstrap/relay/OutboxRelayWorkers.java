package dev.bookstore.ordering.bootstrap.relay;

import dev.bookstore.ordering.application.outbox.RelayRound;
import dev.bookstore.ordering.application.port.in.RelayOutboxUseCase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The threads that drive the relay use case: drain while there is work, then wait for the doorbell or the
 * poll interval. While the broker is away a worker waits the full poll interval between tries, however often
 * the doorbell rings, so an outage costs one cheap attempt per interval rather than one per order. While other
 * instances' commits ring the doorbell too (PostgreSQL {@code NOTIFY}), an idle worker polls only at the longer
 * {@code pollIntervalWhenNotified}, as a safety net; after a round that scheduled retries it looks again after
 * the ordinary poll interval, so an early retry is not held back by the long one.
 */
public final class OutboxRelayWorkers implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelayWorkers.class);

    private final List<RelayOutboxUseCase> relays;
    private final RelayWakeUp wakeUp;
    private final Duration pollInterval;
    private final Duration pollIntervalWhenNotified;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean paused = new AtomicBoolean();
    private final AtomicLong published = new AtomicLong();
    private volatile boolean running;

    public OutboxRelayWorkers(List<RelayOutboxUseCase> relays, RelayWakeUp wakeUp, Duration pollInterval,
                              Duration pollIntervalWhenNotified) {
        this.relays = List.copyOf(relays);
        this.wakeUp = wakeUp;
        this.pollInterval = pollInterval;
        this.pollIntervalWhenNotified = pollIntervalWhenNotified;
    }

    @Override
    public synchronized void start() {
        running = true;
        for (int i = 0; i < relays.size(); i++) {
            RelayOutboxUseCase relay = relays.get(i);
            Thread thread = new Thread(() -> work(relay), "outbox-relay-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        LOG.info("Started {} outbox relay worker(s), polling every {}", relays.size(), pollInterval);
    }

    private void work(RelayOutboxUseCase relay) {
        long seen = wakeUp.rings();
        while (running) {
            try {
                if (paused.get()) {
                    seen = wakeUp.await(seen, pollInterval);
                    continue;
                }
                seen = wakeUp.rings();
                RelayRound round = relay.drain();
                published.addAndGet(round.published());
                if (round.released() > 0) {
                    RelayWakeUp.pause(pollInterval);
                } else {
                    seen = wakeUp.await(seen, idleWait(round));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // A database hiccup must not kill the worker; the next round starts after one poll interval.
                LOG.warn("Outbox relay round failed, retrying in {}: {}", pollInterval, e.toString());
                try {
                    RelayWakeUp.pause(pollInterval);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private Duration idleWait(RelayRound round) {
        return wakeUp.otherInstancesRing() && round.retried() == 0 ? pollIntervalWhenNotified : pollInterval;
    }

    /** Stops publishing (claims nothing) until {@link #resume()}; for demonstrations and maintenance. */
    public void pause() {
        paused.set(true);
    }

    public void resume() {
        paused.set(false);
        wakeUp.ring();
    }

    public boolean isPaused() {
        return paused.get();
    }

    /** Messages this instance's workers published since start. */
    public long publishedSinceStart() {
        return published.get();
    }

    @Override
    public synchronized void stop() {
        running = false;
        threads.forEach(Thread::interrupt);
        for (Thread thread : threads) {
            try {
                thread.join(Duration.ofSeconds(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        threads.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stop before the connection factory and the data source go away, start after them. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1000;
    }
}
