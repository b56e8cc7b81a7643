package dev.bookstore.ordering.bootstrap.relay;

import dev.bookstore.ordering.application.outbox.relay.RelayOutboxUseCase;
import dev.bookstore.ordering.application.outbox.relay.RelayRound;
import dev.bookstore.ordering.application.outbox.relay.RelayWakeUp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;

/**
 * The threads that drive the relay use case: drain while there is work, then wait for the doorbell or the poll
 * interval. While the broker is away ({@link RelayOutboxUseCase#brokerUnavailable()}) a worker tries again every
 * {@code brokerProbeInterval} whatever rings (a round then only probes the broker). While other instances' commits
 * ring too (PostgreSQL {@code NOTIFY}), an idle worker polls only every {@code pollIntervalWhenNotified}, unless its
 * last round scheduled retries. A worker that the doorbell woke waits {@code linger} before it claims, so that the
 * commits of that moment leave in one round: at a low rate, otherwise, every order is a claim, a publish and a mark
 * of its own.
 *
 * <p>The workers stop in the phase of the web server's graceful shutdown, before the connection factory and the data
 * sources go away, and interrupt no batch: each relay stops claiming, settles its batch in flight within the confirm
 * timeout and releases the rest. A worker still busy after {@code stopTimeout} is interrupted; its leases expire.
 * Keep {@code spring.lifecycle.timeout-per-shutdown-phase} above the confirm timeout.
 */
public final class OutboxRelayWorkers implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelayWorkers.class);

    private final List<RelayOutboxUseCase> relays;
    private final RelayWakeUp wakeUp;
    private final Duration pollInterval;
    private final Duration pollIntervalWhenNotified;
    private final Duration brokerProbeInterval;
    private final Duration linger;
    private final Duration stopTimeout;
    private final Runnable afterBusyRound;
    private final List<Thread> threads = new ArrayList<>();
    /** Counted down when the workers are told to stop: cuts every wait of theirs short. */
    private volatile CountDownLatch stopSignal = new CountDownLatch(0);
    private volatile boolean running;

    /**
     * @param brokerProbeInterval the pause between two rounds while the broker is unavailable
     * @param linger how long a worker woken by the doorbell waits for more commits before it claims
     * @param stopTimeout how long a stop waits for the batches in flight: the confirm timeout and a margin for
     *                    recording their outcomes
     * @param afterBusyRound told after every drain that claimed something: the outbox changed
     */
    public OutboxRelayWorkers(List<RelayOutboxUseCase> relays, RelayWakeUp wakeUp, Duration pollInterval,
                              Duration pollIntervalWhenNotified, Duration brokerProbeInterval, Duration linger,
                              Duration stopTimeout, Runnable afterBusyRound) {
        this.relays = List.copyOf(relays);
        this.wakeUp = wakeUp;
        this.pollInterval = pollInterval;
        this.pollIntervalWhenNotified = pollIntervalWhenNotified;
        this.brokerProbeInterval = brokerProbeInterval;
        this.linger = linger;
        this.stopTimeout = stopTimeout;
        this.afterBusyRound = afterBusyRound;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        stopSignal = new CountDownLatch(1);
        relays.forEach(RelayOutboxUseCase::resumeClaiming);
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
                seen = wakeUp.rings();
                RelayRound round = relay.drain();
                if (round.claimed() > 0) {
                    afterBusyRound.run();
                }
                if (!running) {
                    return; // the batch in flight is settled; a ring before this check was seen, one after wakes
                }
                if (relay.brokerUnavailable()) {
                    pause(brokerProbeInterval); // the next round probes the broker, claiming nothing
                } else if (round.released() > 0) {
                    pause(pollInterval); // the broker closed the channel over something it refused
                } else {
                    long before = seen;
                    seen = wakeUp.await(seen, idleWait(round));
                    if (seen != before && !linger.isZero()) {
                        pause(linger); // rings meanwhile are taken by the next round all the same
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // A database hiccup must not kill the worker; the next round starts after one poll interval.
                LOG.warn("Outbox relay round failed, retrying in {}: {}", pollInterval, e.toString());
                try {
                    pause(pollInterval);
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

    /** Waits for {@code timeout} whatever rings, unless the workers are told to stop meanwhile. */
    private void pause(Duration timeout) throws InterruptedException {
        stopSignal.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Stops and waits for the workers, at most {@code stopTimeout}. */
    @Override
    public void stop() {
        CountDownLatch done = new CountDownLatch(1);
        stop(done::countDown);
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Tells every relay to stop claiming and wakes the idle workers, then returns; {@code callback} runs once every
     * worker has settled its batch in flight, or after {@code stopTimeout}.
     */
    @Override
    public void stop(Runnable callback) {
        List<Thread> stopping;
        synchronized (this) {
            running = false;
            relays.forEach(RelayOutboxUseCase::stopClaiming);
            stopping = List.copyOf(threads);
            threads.clear();
        }
        stopSignal.countDown();
        wakeUp.ring(); // wakes the workers that wait for the doorbell; they see running == false
        Thread waiter = new Thread(() -> {
            try {
                awaitWorkers(stopping);
            } finally {
                callback.run();
            }
        }, "outbox-relay-stop");
        waiter.setDaemon(true);
        waiter.start();
    }

    private void awaitWorkers(List<Thread> workers) {
        long deadline = System.nanoTime() + stopTimeout.toNanos();
        try {
            for (Thread worker : workers) {
                long remaining = deadline - System.nanoTime();
                if (remaining > 0) {
                    TimeUnit.NANOSECONDS.timedJoin(worker, remaining);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<Thread> stuck = workers.stream().filter(Thread::isAlive).toList();
        if (!stuck.isEmpty()) {
            LOG.warn("{} outbox relay worker(s) still busy {} after the stop; interrupting them, their leases "
                    + "expire", stuck.size(), stopTimeout);
            stuck.forEach(Thread::interrupt);
        } else {
            LOG.info("Outbox relay workers stopped; batches in flight were settled");
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Stops with the web server's graceful shutdown (both in this phase, each bounded by
     * {@code spring.lifecycle.timeout-per-shutdown-phase}), before the connection factory and the data source go
     * away; starts after them.
     */
    @Override
    public int getPhase() {
        return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE;
    }
}
