package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.application.outbox.relay.RelaySettings;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The CDC relay's own knobs, under {@code ordering.outbox.cdc} (used only with {@code ordering.outbox.relay=cdc});
 * the confirm timeout and broker probe interval are the relay's, {@code ordering.outbox.*}. The stream sends in
 * commit order, so a failing message holds every message after it: its attempts, backoff and unroutable policy are
 * its own, with defaults that park sooner than the polling relay's.
 *
 * @param slotName the logical replication slot the relay reads (made at its first start); also names the advisory
 *                 lock that lets one instance at a time read it, and the offsets stored for it
 * @param leaderPollInterval how often a standby instance tries to take over the slot, and the reading instance
 *                 checks that it still holds it: a standby takes over within this interval of the leader's
 *                 session ending, plus the engine's start
 * @param restartBackoffInitial delay before the change stream starts again after it failed; doubles per failure
 * @param restartBackoffMax longest delay between two starts of a failing change stream
 * @param pollInterval how long the connector waits for a batch to fill, and sleeps when the log has nothing new
 *                 (Debezium's poll.interval.ms): a message waits up to twice this. Unset, the documented
 *                 configuration's 10 ms. Shorter costs an idle reader CPU: Debezium's queue spins through the last
 *                 millisecond of every wait (docs/capacity.md)
 * @param lagRefreshInterval how often the slot's lag and retained WAL are read for the gauges and the outbox
 *                 health component (one query per interval per instance)
 * @param lagDegraded WAL between the slot's confirmed position and the current one above which the outbox health
 *                 component is DEGRADED
 * @param lagDown the same, above which it is DOWN
 * @param unconfirmedAgeDegraded how long the oldest change the slot has not confirmed may wait before the outbox
 *                 health component is DEGRADED (it grows while nobody reads the slot or the broker refuses)
 * @param unconfirmedAgeDown the same, above which it is DOWN
 * @param retainedWalDegraded WAL the slot retains above which the outbox health component is DEGRADED
 * @param retainedWalDown the same, above which it is DOWN (the server's disk fills with it)
 * @param maxAttempts failed deliveries after which a captured message is parked (the stream waits for it until then)
 * @param backoffInitial delay after a captured message's first failed delivery; doubles per failure, with jitter
 * @param backoffMax longest delay between two attempts of one captured message
 * @param unroutable what a captured message that no queue took becomes: retry (an attempt, parked after
 *                 max-attempts), park (parked at once) or publish (counted as published with a warning)
 * @param markInterval how often each instance marks the WAL's position with the outbox's time and notes the marks
 *                 the slot has confirmed, then deletes rows older than the retention and behind the newest
 *                 confirmed mark (one short round of statements per interval per instance). A recovery from a lost
 *                 slot sends again the rows stored since that mark: about two intervals of orders more than it must
 * @param recoverLostSlot whether the reading instance recovers a lost slot by itself (docs/cdc.md, "Recovering
 *                 from a lost slot"); false: it waits, the outbox component DOWN, until an instance that may
 *                 recover is started
 */
@Validated
@ConfigurationProperties("ordering.outbox.cdc")
public record CdcProperties(
        @DefaultValue("ordering_outbox") @NotNull @Pattern(regexp = "[a-z0-9_]{1,63}",
                message = "a replication slot name is 1 to 63 of a-z, 0-9 and _") String slotName,
        @DefaultValue("1s") @NotNull Duration leaderPollInterval,
        @DefaultValue("1s") @NotNull Duration restartBackoffInitial,
        @DefaultValue("1m") @NotNull Duration restartBackoffMax,
        Duration pollInterval,
        @DefaultValue("5s") @NotNull Duration lagRefreshInterval,
        @DefaultValue("64MB") @NotNull DataSize lagDegraded,
        @DefaultValue("1GB") @NotNull DataSize lagDown,
        @DefaultValue("60s") @NotNull Duration unconfirmedAgeDegraded,
        @DefaultValue("15m") @NotNull Duration unconfirmedAgeDown,
        @DefaultValue("1GB") @NotNull DataSize retainedWalDegraded,
        @DefaultValue("8GB") @NotNull DataSize retainedWalDown,
        @DefaultValue("3") @Min(1) @Max(1000) int maxAttempts,
        @DefaultValue("250ms") @NotNull Duration backoffInitial,
        @DefaultValue("1s") @NotNull Duration backoffMax,
        @DefaultValue("retry") @NotNull RelaySettings.Unroutable unroutable,
        @DefaultValue("10s") @NotNull Duration markInterval,
        @DefaultValue("true") boolean recoverLostSlot) {

    @AssertTrue(message = "backoff-initial must be positive and not above backoff-max")
    boolean isBackoffOrdered() {
        return backoffInitial == null || backoffMax == null
                || (OutboxProperties.positive(backoffInitial) && backoffInitial.compareTo(backoffMax) <= 0);
    }

    @AssertTrue(message = "lag-degraded must be below lag-down, and retained-wal-degraded below retained-wal-down")
    boolean isThresholdsOrdered() {
        return lagDegraded == null || lagDown == null || retainedWalDegraded == null || retainedWalDown == null
                || (lagDegraded.compareTo(lagDown) < 0 && retainedWalDegraded.compareTo(retainedWalDown) < 0);
    }

    @AssertTrue(message = "unconfirmed-age-degraded must be positive and below unconfirmed-age-down")
    boolean isUnconfirmedAgeThresholdsOrdered() {
        return unconfirmedAgeDegraded == null || unconfirmedAgeDown == null
                || (OutboxProperties.positive(unconfirmedAgeDegraded)
                && unconfirmedAgeDegraded.compareTo(unconfirmedAgeDown) < 0);
    }

    @AssertTrue(message = "leader-poll-interval must be between 100ms and 1m")
    boolean isLeaderPollIntervalSane() {
        return leaderPollInterval == null
                || OutboxProperties.between(leaderPollInterval, Duration.ofMillis(100), Duration.ofMinutes(1));
    }

    @AssertTrue(message = "mark-interval must be between 100ms and 10m")
    boolean isMarkIntervalSane() {
        return markInterval == null
                || OutboxProperties.between(markInterval, Duration.ofMillis(100), Duration.ofMinutes(10));
    }

    @AssertTrue(message = "poll-interval must be between 1ms and 10s")
    boolean isPollIntervalSane() {
        return pollInterval == null
                || OutboxProperties.between(pollInterval, Duration.ofMillis(1), Duration.ofSeconds(10));
    }

    @AssertTrue(message = "restart-backoff-initial must be positive and not above restart-backoff-max")
    boolean isRestartBackoffOrdered() {
        return restartBackoffInitial == null || restartBackoffMax == null
                || (OutboxProperties.positive(restartBackoffInitial)
                && restartBackoffInitial.compareTo(restartBackoffMax) <= 0);
    }
}
