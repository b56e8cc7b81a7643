package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.capture.ParkUnreadableChangeUseCase;
import dev.bookstore.ordering.application.outbox.capture.CaptureLagProbe;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesUseCase;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The CDC relay of one instance: it competes for the slot's advisory lock every {@code leaderPollInterval}; the
 * instance that holds it runs Debezium's embedded engine, checks at the same interval that it still holds the lock,
 * and stops the engine when it does not. An engine that fails is started again after a backoff, from the offsets
 * last committed, as long as the lock is held. A standby therefore takes over a dead leader's slot within
 * {@code leaderPollInterval} of the server releasing the lock, plus the engine's start. Before each start the leader
 * checks its slot and recovers it if it is lost ({@link LostSlotRecovery}): the engine never runs on a slot that
 * skipped what the lost one had not confirmed.
 */
public final class CdcRelay implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(CdcRelay.class.getName());
    private static final Duration ENGINE_STOP_TIMEOUT = Duration.ofSeconds(30);

    private final CdcSettings settings;
    private final RelayCapturedMessagesUseCase relay;
    private final ParkUnreadableChangeUseCase unreadable;
    private final AdvisoryLockLeadership leadership;
    private final LostSlotRecovery recovery;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Thread supervisor;

    /** @param slot the slot's state, checked before each start of the engine ({@link LostSlotRecovery}) */
    public CdcRelay(CdcSettings settings, RelayCapturedMessagesUseCase relay, ParkUnreadableChangeUseCase unreadable,
                    CaptureLagProbe slot) {
        this.settings = settings;
        this.relay = relay;
        this.unreadable = unreadable;
        this.leadership = new AdvisoryLockLeadership(settings);
        this.recovery = new LostSlotRecovery(settings, relay, slot, stopped);
        this.supervisor = new Thread(this::supervise, "ordering-cdc-relay");
        this.supervisor.setDaemon(true);
    }

    public void start() {
        supervisor.start();
    }

    /** What this relay's engine runs with: connection (TLS included), captured table, slot, offsets. */
    public Properties engineConfiguration() {
        return OutboxConnectorConfiguration.engine(settings);
    }

    /** Stops the engine (what is confirmed but not committed is read again by the next reader) and frees the lock. */
    @Override
    public void close() {
        stopped.countDown();
        try {
            supervisor.join(ENGINE_STOP_TIMEOUT.multipliedBy(2).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        leadership.close();
    }

    private void supervise() {
        int failures = 0;
        while (!stopping()) {
            if (!leadership.tryAcquire()) {
                pause(settings.leaderPollInterval());
                continue;
            }
            LostSlotRecovery.Outcome slot;
            try {
                slot = recovery.prepare(() -> !stopping() && leadership.holds());
            } catch (SQLException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "Checking or recovering replication slot {0} failed; trying "
                        + "again: {1}", settings.slotName(), e.toString());
                failures++;
                pause(settings.restartBackoff().delayAfter(failures));
                continue;
            }
            if (slot != LostSlotRecovery.Outcome.READY) {
                pause(settings.leaderPollInterval());
                continue;
            }
            LOG.log(System.Logger.Level.INFO, "{0} holds the CDC lock of slot {1}; starting the change stream",
                    settings.instance(), settings.slotName());
            boolean failed = runEngineWhileLeader();
            if (failed && !stopping()) {
                failures++;
                pause(settings.restartBackoff().delayAfter(failures));
            } else {
                failures = 0;
            }
        }
        leadership.close();
    }

    /** Runs one engine until it ends, the lock is lost or the relay stops; true when the engine failed. */
    private boolean runEngineWhileLeader() {
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        OffsetWrites offsets = OffsetWrites.open();
        CapturedMessagesConsumer consumer = new CapturedMessagesConsumer(relay, unreadable, offsets);
        Properties configuration = OutboxConnectorConfiguration.engine(settings);
        configuration.setProperty(JdbcOffsetBackingStore.WRITES, offsets.key());
        DebeziumEngine<RecordChangeEvent<SourceRecord>> engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
                .using(configuration)
                .using((success, message, error) -> ended.complete(success ? null
                        : error != null ? error : new IllegalStateException(message)))
                .notifying(consumer)
                .build();
        Thread runner = new Thread(engine, "ordering-cdc-engine");
        runner.setDaemon(true);
        runner.start();
        try {
            while (!stopping() && !ended.isDone()) {
                waitFor(ended, settings.leaderPollInterval());
                if (!ended.isDone() && !leadership.holds()) {
                    LOG.log(System.Logger.Level.WARNING, "{0} lost the CDC lock of slot {1}; stopping its change "
                            + "stream", settings.instance(), settings.slotName());
                    break;
                }
            }
        } finally {
            consumer.stop();
            stop(engine, ended);
            offsets.close();
        }
        Throwable error = ended.getNow(null);
        if (error != null && !stopping()) {
            LOG.log(System.Logger.Level.WARNING, "The CDC change stream of slot {0} failed; it starts again from "
                    + "the last committed offset: {1}", settings.slotName(), error.toString());
            return true;
        }
        return false;
    }

    private static void stop(DebeziumEngine<?> engine, CompletableFuture<Throwable> ended) {
        long deadline = System.nanoTime() + ENGINE_STOP_TIMEOUT.toNanos();
        while (!ended.isDone() && System.nanoTime() < deadline) {
            try {
                engine.close();
                break;
            } catch (IllegalStateException starting) {
                // the engine refuses to stop while its tasks start; ask again shortly
                waitFor(ended, Duration.ofMillis(100));
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "Stopping the CDC engine failed: {0}", e.toString());
                break;
            }
        }
        waitFor(ended, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    private static void waitFor(CompletableFuture<?> future, Duration timeout) {
        try {
            future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException ignored) {
            // timed out: the caller looks again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean stopping() {
        return stopped.getCount() == 0;
    }

    private void pause(Duration duration) {
        try {
            stopped.await(duration.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped.countDown();
        }
    }
}
