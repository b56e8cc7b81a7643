package dev.bookstore.ordering.application.outbox.capture;

import java.time.Duration;

/**
 * What the retention job removes from the outbox while the CDC relay runs: rows are never marked published in that
 * mode (they were relayed from the log), so pending and published rows go by their age; parked rows stay.
 */
public interface CapturedMessageRetention {

    /** Deletes up to {@code limit} rows, not parked, stored more than {@code age} ago by the database's clock. */
    int deleteCapturedOlderThan(Duration age, int limit);
}
