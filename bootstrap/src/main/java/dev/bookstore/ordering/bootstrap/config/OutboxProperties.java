package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.application.outbox.admin.RelayReading;
import dev.bookstore.ordering.application.outbox.relay.RelaySettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every relay knob, and how the outbox is watched, under {@code ordering.outbox}. Bad values stop the service at start-up with the name of
 * the property and what it must be. Each {@code @param} is also the property's description in the configuration
 * metadata that IDEs show (plain text: the configuration processor copies it as it is).
 *
 * @param relay which relay this instance runs: polling (workers that claim rows, the default), cdc (Debezium reads
 *                     the outbox from PostgreSQL's write-ahead log) or none (the API works either way)
 * @param deploymentRelay the relay that reads the outbox in the whole deployment, which decides what this instance's
 *                     statistics, outbox health component, retention and operator API do: polling or cdc (unset:
 *                     this instance's relay, polling where it is none); cdc on instances with relay none beside
 *                     cdc instances or beside a Debezium Server or Kafka Connect that reads the outbox
 * @param exchange the topic exchange messages are published to
 * @param batchSize messages claimed and put in flight together
 * @param workers relay threads in this instance, each with its own lease owner and channel
 * @param pollInterval how often an idle relay looks for due messages it was not woken for
 * @param pollIntervalWhenNotified the idle poll while PostgreSQL NOTIFY wakes the relays of all instances:
 *                     then the poll is only the safety net (for retries that became due and expired leases)
 * @param brokerProbeInterval while the broker is unavailable, how often a relay tries to connect to it again (one
 *                     connection attempt, nothing claimed): the longest the relay takes to notice the broker is back
 * @param linger how long a relay woken by a commit waits for more commits before it claims, so that at low rates
 *                     one round takes several messages: up to this much is added to a message's way to the broker
 * @param notifyMinInterval the shortest time between two NOTIFYs of one instance; the commits in between
 *                     are announced together, by one NOTIFY at the end of the interval (the first commit after
 *                     a quiet interval at once): the longest another instance's relay waits to hear of a row
 * @param lease how long claimed messages stay reserved for the relay that claimed them
 * @param confirmTimeout how long a relay waits for the broker's confirms of one batch
 * @param maxAttempts failed deliveries after which a message is parked
 * @param backoffInitial delay after the first failed delivery; doubles per failure, with jitter
 * @param backoffMax longest delay between two attempts of one message
 * @param ordered one in-flight message per aggregate, in the order they occurred
 * @param retention how long published messages are kept before they are deleted
 * @param retentionInterval how often the retention job runs
 * @param retentionChunk rows deleted per statement by the retention job
 * @param channelErrorRetries consecutive relay rounds in which the broker closed the channel over something it
 *                     refused (e.g. 406 PRECONDITION_FAILED for an invalid header) that are released without
 *                     counting an attempt; the round after them publishes one message at a time and charges the
 *                     close only to the message it follows
 * @param unroutable what a message that no queue took becomes: retry (an attempt, parked after max-attempts),
 *                     park (parked at once, for an operator) or publish (counted as published with a warning, for
 *                     an exchange where no subscriber is fine)
 * @param relayPool the relay's own database connection pool, ordering-relay, beside the API's pool: neither can
 *                     take the other's connections
 * @param stats the one statistics query that the gauges, the outbox health component, /outbox/stats and the live
 *                     page all read
 * @param health the age thresholds of the outbox health component
 */
@Validated
@ConfigurationProperties("ordering.outbox")
public record OutboxProperties(
        @DefaultValue("polling") @NotNull Relay relay,
        Relay deploymentRelay,
        @DefaultValue("bookstore.ordering") @NotBlank String exchange,
        @DefaultValue("100") @Min(1) @Max(5000) int batchSize,
        @DefaultValue("1") @Min(1) @Max(32) int workers,
        @DefaultValue("1s") @NotNull Duration pollInterval,
        @DefaultValue("10s") @NotNull Duration pollIntervalWhenNotified,
        @DefaultValue("200ms") @NotNull Duration brokerProbeInterval,
        @DefaultValue("10ms") @NotNull Duration linger,
        @DefaultValue("20ms") @NotNull Duration notifyMinInterval,
        @DefaultValue("60s") @NotNull Duration lease,
        @DefaultValue("10s") @NotNull Duration confirmTimeout,
        @DefaultValue("10") @Min(1) @Max(1000) int maxAttempts,
        @DefaultValue("1s") @NotNull Duration backoffInitial,
        @DefaultValue("5m") @NotNull Duration backoffMax,
        @DefaultValue("false") boolean ordered,
        @DefaultValue("7d") @NotNull Duration retention,
        @DefaultValue("1m") @NotNull Duration retentionInterval,
        @DefaultValue("1000") @Min(1) @Max(100000) int retentionChunk,
        @DefaultValue("3") @Min(0) @Max(100) int channelErrorRetries,
        @DefaultValue("retry") @NotNull RelaySettings.Unroutable unroutable,
        @Valid @DefaultValue RelayPool relayPool,
        @Valid @DefaultValue Stats stats,
        @Valid @DefaultValue Health health) {

    /**
     * The relay's connections: a pool of its own, so that a burst of API requests waiting for the API's pool never
     * holds up the relay (nor the relay the requests). Its other settings (connection timeout, lifetimes, driver
     * properties) are the API pool's, {@code spring.datasource.hikari.*}.
     *
     * @param maximumSize connections of the relay's pool (unset: workers + 1); at least workers, since each relay
     *                    worker uses one connection at a time
     */
    public record RelayPool(@Min(1) @Max(100) Integer maximumSize) {
    }

    /**
     * @param refreshInterval how often this instance counts the outbox (one indexed query); every reader gets the
     *                        latest count, so scrapes, probes and page refreshes add no query of their own
     * @param idleRefreshInterval how often it counts while the outbox is quiet (nothing pending, nothing published
     *                            since the count before); the first count that sees activity goes back to
     *                            refresh-interval
     */
    public record Stats(@DefaultValue("2s") @NotNull Duration refreshInterval,
                        @DefaultValue("10s") @NotNull Duration idleRefreshInterval) {

        @AssertTrue(message = "refresh-interval must be between 100ms and 5m")
        boolean isRefreshIntervalSane() {
            return refreshInterval == null || between(refreshInterval, Duration.ofMillis(100), Duration.ofMinutes(5));
        }

        @AssertTrue(message = "idle-refresh-interval must be at least refresh-interval and at most 5m")
        boolean isIdleRefreshIntervalSane() {
            return refreshInterval == null || idleRefreshInterval == null
                    || between(idleRefreshInterval, refreshInterval, Duration.ofMinutes(5));
        }
    }

    /**
     * @param degradedAfter the outbox health component is DEGRADED once the oldest pending message is older than this
     * @param downAfter the outbox health component is DOWN once the oldest pending message is older than this
     */
    public record Health(@DefaultValue("10s") @NotNull Duration degradedAfter,
                         @DefaultValue("60s") @NotNull Duration downAfter) {

        @AssertTrue(message = "degraded-after must be positive and below down-after")
        boolean isThresholdsOrdered() {
            return degradedAfter == null || downAfter == null
                    || (positive(degradedAfter) && degradedAfter.compareTo(downAfter) < 0);
        }
    }

    /** Which relay an instance runs; the API takes orders whichever it is. */
    public enum Relay {
        /** Relay workers claim pending rows and mark them published. */
        POLLING,
        /** Debezium's embedded engine reads inserted rows from PostgreSQL's write-ahead log (logical decoding). */
        CDC,
        /** No relay in this instance. */
        NONE
    }

    /** The relay the deployment reads the outbox with: {@code deployment-relay}, or else this instance's. */
    public Relay deploymentRelayMode() {
        return deploymentRelayOf(relay, deploymentRelay);
    }

    /** The deployment's relay: the one set, or else this instance's (polling where it runs none). */
    static Relay deploymentRelayOf(Relay relay, Relay deploymentRelay) {
        return deploymentRelay != null ? deploymentRelay : relay == Relay.CDC ? Relay.CDC : Relay.POLLING;
    }

    /**
     * What this deployment's relay reads: inserts in cdc mode (no row is ever marked published, a message is sent
     * again by inserting its row again); pending rows otherwise.
     */
    public RelayReading relayReading() {
        return deploymentRelayMode() == Relay.CDC ? RelayReading.INSERTS : RelayReading.PENDING_ROWS;
    }

    @AssertTrue(message = "deployment-relay is polling or cdc, and an instance that runs a relay belongs to a "
            + "deployment of that relay: set it only beside relay none")
    boolean isDeploymentRelayConsistent() {
        return deploymentRelay == null || (deploymentRelay != Relay.NONE
                && (relay == Relay.NONE || relay == deploymentRelay));
    }

    /** The size of the relay's pool: {@code relay-pool.maximum-size}, by default one connection per worker and one. */
    public int relayPoolMaximumSize() {
        return relayPool == null || relayPool.maximumSize() == null ? workers + 1 : relayPool.maximumSize();
    }

    @AssertTrue(message = "relay-pool.maximum-size must be at least workers: each relay worker uses one connection "
            + "at a time")
    boolean isRelayPoolLargeEnough() {
        return relayPool == null || relayPool.maximumSize() == null || relayPool.maximumSize() >= workers;
    }

    @AssertTrue(message = "poll-interval must be between 10ms and 1h")
    boolean isPollIntervalSane() {
        return pollInterval == null || between(pollInterval, Duration.ofMillis(10), Duration.ofHours(1));
    }

    @AssertTrue(message = "poll-interval-when-notified must be between 10ms and 1h")
    boolean isPollIntervalWhenNotifiedSane() {
        return pollIntervalWhenNotified == null
                || between(pollIntervalWhenNotified, Duration.ofMillis(10), Duration.ofHours(1));
    }

    @AssertTrue(message = "broker-probe-interval must be between 10ms and 1m")
    boolean isBrokerProbeIntervalSane() {
        return brokerProbeInterval == null
                || between(brokerProbeInterval, Duration.ofMillis(10), Duration.ofMinutes(1));
    }

    @AssertTrue(message = "linger must be between 0 and 1s")
    boolean isLingerSane() {
        return linger == null || between(linger, Duration.ZERO, Duration.ofSeconds(1));
    }

    @AssertTrue(message = "notify-min-interval must be between 0 and 1s")
    boolean isNotifyMinIntervalSane() {
        return notifyMinInterval == null || between(notifyMinInterval, Duration.ZERO, Duration.ofSeconds(1));
    }

    @AssertTrue(message = "confirm-timeout must be between 100ms and 5m")
    boolean isConfirmTimeoutSane() {
        return confirmTimeout == null || between(confirmTimeout, Duration.ofMillis(100), Duration.ofMinutes(5));
    }

    @AssertTrue(message = "lease must be at least twice confirm-timeout, so a relay never loses a lease while "
            + "it waits for confirms")
    boolean isLeaseLongerThanConfirms() {
        return lease == null || confirmTimeout == null || lease.compareTo(confirmTimeout.multipliedBy(2)) >= 0;
    }

    @AssertTrue(message = "backoff-initial must be positive and not above backoff-max")
    boolean isBackoffOrdered() {
        return backoffInitial == null || backoffMax == null
                || (positive(backoffInitial) && backoffInitial.compareTo(backoffMax) <= 0);
    }

    @AssertTrue(message = "retention and retention-interval must be positive")
    boolean isRetentionPositive() {
        return retention == null || retentionInterval == null
                || (positive(retention) && positive(retentionInterval));
    }

    static boolean positive(Duration value) {
        return !value.isNegative() && !value.isZero();
    }

    static boolean between(Duration value, Duration min, Duration max) {
        return value.compareTo(min) >= 0 && value.compareTo(max) <= 0;
    }
}
