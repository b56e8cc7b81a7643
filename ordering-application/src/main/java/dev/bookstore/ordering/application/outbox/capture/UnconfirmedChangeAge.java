package dev.bookstore.ordering.application.outbox.capture;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The age of the oldest change the slot's reader has not confirmed, from successive {@link CaptureLag}
 * measurements. PostgreSQL keeps no time per WAL position (nor per row unless {@code track_commit_timestamp} is
 * on), so this keeps each measurement's WAL end with its time: the oldest kept end beyond the slot's confirmed
 * position shows that unconfirmed WAL already existed then. The age is a lower bound, exact to one measurement
 * interval; it is also at least the time since the reader's last commit while anything is unconfirmed, so an
 * instance that starts while the reader is stuck reports the whole wait at once. Zero when the slot has confirmed
 * the whole WAL; growing while it does not move, whether nobody reads it, the broker refuses or the reader is slow.
 */
public final class UnconfirmedChangeAge {

    /** Kept WAL ends at most; past it every other one is dropped (the oldest stays), coarsening older history. */
    static final int MAX_SAMPLES = 4096;

    private record Sample(Instant at, long walPosition) {
    }

    /** WAL ends beyond the confirmed position, oldest first. */
    private final List<Sample> samples = new ArrayList<>();

    /** Takes in a measurement and answers the age it shows; never negative. */
    public synchronized Duration observe(CaptureLag lag) {
        if (!lag.slotExists() || lag.lagBytes() <= 0) {
            samples.clear();
            return Duration.ZERO;
        }
        long confirmed = lag.walPosition() - lag.lagBytes();
        samples.removeIf(sample -> sample.walPosition() <= confirmed);
        if (samples.isEmpty() || samples.get(samples.size() - 1).walPosition() < lag.walPosition()) {
            samples.add(new Sample(lag.measuredAt(), lag.walPosition()));
        }
        if (samples.size() > MAX_SAMPLES) {
            List<Sample> kept = new ArrayList<>();
            for (int i = 0; i < samples.size(); i += 2) {
                kept.add(samples.get(i));
            }
            samples.clear();
            samples.addAll(kept);
        }
        Instant since = samples.get(0).at();
        if (lag.confirmedAt() != null && lag.confirmedAt().isBefore(since)) {
            since = lag.confirmedAt();
        }
        Duration age = Duration.between(since, lag.measuredAt());
        return age.isNegative() ? Duration.ZERO : age;
    }
}
