package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.relay.Backoff;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how the CDC relay reads the outbox.
 *
 * @param database how the application's pool connects to its PostgreSQL database: every CDC connection (engine,
 *                 lock, offsets) is made the same way
 * @param schema the schema of the outbox table the service writes ({@link OutboxPublication#capturedSchema}): the
 *               connector captures {@code <schema>.outbox_message}, the offsets are kept beside it
 * @param slotName the logical replication slot; also names the advisory lock that elects its one reader and the
 *                 offsets kept for it
 * @param instance this instance's name, shown as the connections' application name
 * @param leaderPollInterval how often a standby tries to take the lock, and the leader checks it still holds it
 * @param restartBackoff delay before the engine is started again after it failed
 * @param pollInterval the connector's {@code poll.interval.ms}, or null for the documented configuration's
 * @param recoverLostSlot whether the reader recovers a lost slot by itself ({@link LostSlotRecovery}); if not, it
 *                 waits, holding the lock, until the slot is recovered
 */
public record CdcSettings(DatabaseConnection database, String schema, String slotName, String instance,
                          Duration leaderPollInterval, Backoff restartBackoff, Duration pollInterval,
                          boolean recoverLostSlot) {

    /** A reader that recovers a lost slot by itself. */
    public CdcSettings(DatabaseConnection database, String schema, String slotName, String instance,
                       Duration leaderPollInterval, Backoff restartBackoff, Duration pollInterval) {
        this(database, schema, slotName, instance, leaderPollInterval, restartBackoff, pollInterval, true);
    }

    public CdcSettings {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(slotName, "slotName");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(leaderPollInterval, "leaderPollInterval");
        Objects.requireNonNull(restartBackoff, "restartBackoff");
        if (!slotName.matches("[a-z0-9_]{1,63}")) {
            throw new IllegalArgumentException("a replication slot name is 1 to 63 of a-z, 0-9 and _, got "
                    + slotName);
        }
    }
}
