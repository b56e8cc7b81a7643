package dev.bookstore.ordering.application.outbox.capture;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How far the CDC slot has confirmed the outbox, in the outbox's own time: every row stored before {@code confirmed}
 * was committed before a WAL position the slot has confirmed, so the broker has it. Null while no such position is
 * known. {@code hold} says why nothing may be deleted now, or {@link Hold#NONE}; {@code measuredAt} is the database's
 * time then (null when held).
 */
public record CaptureHorizon(Hold hold, Instant confirmed, Instant measuredAt) {

    /** Why the retention deletes nothing. */
    public enum Hold {
        /** Rows older than the retention and than {@code confirmed} may go. */
        NONE("none"),
        /** The slot does not exist; offsets were committed for it, or none was ever made. */
        SLOT_MISSING("the replication slot is missing"),
        /**
         * The server invalidated the slot (wal_status 'lost'), or it was made anew after the offsets were committed:
         * the WAL of what the old one had not confirmed is gone.
         */
        SLOT_LOST("the replication slot is lost (invalidated, or made anew after its offsets)"),
        /** The slot exists but nobody reads it. */
        SLOT_NOT_READ("nobody reads the replication slot"),
        /** A recovery of the lost slot sends rows again. */
        RECOVERING("the lost replication slot is being recovered"),
        /** The slot is read, but has not confirmed any mark yet. */
        NOTHING_CONFIRMED("the replication slot has not confirmed any position marked yet");

        private final String reason;

        Hold(String reason) {
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }

    public CaptureHorizon {
        Objects.requireNonNull(hold, "hold");
        if (hold == Hold.NONE && confirmed == null) {
            hold = Hold.NOTHING_CONFIRMED;
        }
    }

    public static CaptureHorizon held(Hold hold) {
        return new CaptureHorizon(hold, null, null);
    }

    /** Whether rows older than {@code retention} are kept because the slot has not confirmed them. */
    public boolean behind(Duration retention) {
        return confirmed != null && measuredAt != null && confirmed.isBefore(measuredAt.minus(retention));
    }
}
