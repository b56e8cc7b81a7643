package dev.bookstore.ordering.bootstrap.retention;

import dev.bookstore.ordering.application.outbox.capture.CaptureHorizon;
import dev.bookstore.ordering.application.outbox.capture.CaptureHorizon.Hold;
import dev.bookstore.ordering.application.outbox.capture.CapturedMessageRetention;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rounds of the cdc mode's outbox retention: each marks the slot's progress and deletes only rows older than the
 * retention and than the newest mark the slot confirmed; while the slot is missing, lost, not read or being recovered
 * it deletes nothing, since the rows it has not confirmed exist nowhere else. Logs a warning once per such pause, and
 * once when the retention goes on; the same while rows older than the retention wait for the slot to confirm them.
 */
public final class CapturedRetentionRounds implements Supplier<RetentionJob.Deletion> {

    private static final Logger LOG = LoggerFactory.getLogger(CapturedRetentionRounds.class);

    private final CapturedMessageRetention retention;
    private final Duration age;
    private Hold paused = Hold.NONE;
    private boolean behind;

    /** @param age the retention: rows older than this go once the slot has confirmed them */
    public CapturedRetentionRounds(CapturedMessageRetention retention, Duration age) {
        this.retention = retention;
        this.age = age;
    }

    @Override
    public synchronized RetentionJob.Deletion get() {
        CaptureHorizon horizon = retention.advance();
        Hold hold = horizon.hold();
        if (hold == Hold.NOTHING_CONFIRMED) {
            return RetentionJob.HELD; // the first rounds after a start or a recovery: nothing marked confirmed yet
        }
        if (hold != Hold.NONE) {
            if (paused != hold) {
                LOG.warn("CDC outbox retention paused: {}; no outbox row is deleted until the slot is read again "
                        + "(docs/cdc.md, \"Recovering from a lost slot\")", hold.reason());
                paused = hold;
            }
            return RetentionJob.HELD;
        }
        if (paused != Hold.NONE) {
            LOG.info("CDC outbox retention goes on: the slot confirmed the outbox up to {}", horizon.confirmed());
            paused = Hold.NONE;
        }
        if (horizon.behind(age) != behind) {
            behind = !behind;
            if (behind) {
                LOG.warn("CDC outbox retention holds rows older than {}: the slot has confirmed the outbox only up to "
                        + "{}", age, horizon.confirmed());
            } else {
                LOG.info("CDC outbox retention has caught up: the slot confirmed the outbox up to {}",
                        horizon.confirmed());
            }
        }
        return (age, limit) -> retention.deleteCapturedOlderThan(age, horizon.confirmed(), limit);
    }
}
