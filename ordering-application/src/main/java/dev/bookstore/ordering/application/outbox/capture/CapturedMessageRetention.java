package dev.bookstore.ordering.application.outbox.capture;

import java.time.Duration;
import java.time.Instant;

/**
 * What the retention job removes from the outbox while a CDC relay reads it. Rows are never marked published in that
 * mode, and while the replication slot is lost its rows are the only copy of what it had not confirmed, so a row
 * goes only once it is older than the retention and the slot has confirmed it (see {@link CaptureHorizon}).
 */
public interface CapturedMessageRetention {

    /**
     * One round of the job: marks the WAL's current position with its horizon, notes the marks the slot has confirmed
     * since, and answers how far rows may be deleted.
     */
    CaptureHorizon advance();

    /**
     * Deletes up to {@code limit} rows, not parked, stored more than {@code age} ago and before {@code horizon}, by
     * the database's clock.
     */
    int deleteCapturedOlderThan(Duration age, Instant horizon, int limit);
}
