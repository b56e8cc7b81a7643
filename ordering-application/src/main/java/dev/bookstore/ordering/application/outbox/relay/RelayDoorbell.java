package dev.bookstore.ordering.application.outbox.relay;

/**
 * Wakes this instance's relay before its next poll: rung for commits here and on other instances, and when the
 * broker accepts publishing again. A ring while the relay is busy is remembered, never lost. Returns at once.
 */
public interface RelayDoorbell {

    void ring();

    /**
     * Whether commits on other instances ring this doorbell now (their notifications are heard): while they do, an
     * idle relay needs to poll only as a safety net.
     */
    void otherInstancesRing(boolean heard);
}
