package dev.bookstore.ordering.bootstrap.config;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The jobs and limits this service adds to Spring Modulith's event publication registry, under
 * {@code ordering.modulith}. Each {@code @param} is also the property's description in the configuration metadata.
 *
 * @param resubmitInterval how often the failed Spring Modulith event publications (their listener threw, or the
 *                         staleness monitor, spring.modulith.events.staleness.*, took them for lost) are resubmitted
 *                         to their listeners
 * @param resubmitMaxInFlight at most this many resubmitted event publications are out at once, across all instances;
 *                            a round resubmits no more than the difference
 * @param maxQueuedListenerRuns POST /orders and the cancel answer 503 with Retry-After while this many in-process
 *                              listener runs wait for a thread; each waiting order's event publication takes about
 *                              1.1 KB of heap
 * @param incompletePublicationsInterval how often the gauge ordering.modulith.incomplete.publications (Spring
 *                                       Modulith event publications not yet completed) is refreshed: one count per
 *                                       incomplete status per interval, never per scrape
 * @param listenerConnectionWait how long an in-process listener run (and its completion) waits for a database
 *                               connection, trying again with a backoff, before it fails and is left for the
 *                               resubmission
 */
@Validated
@ConfigurationProperties("ordering.modulith")
public record ModulithProperties(
        @DefaultValue("1m") @NotNull Duration resubmitInterval,
        @DefaultValue("500") @Min(1) int resubmitMaxInFlight,
        @DefaultValue("20000") @Min(1) int maxQueuedListenerRuns,
        @DefaultValue("30s") @NotNull Duration incompletePublicationsInterval,
        @DefaultValue("60s") @NotNull Duration listenerConnectionWait) {

    @AssertTrue(message = "resubmit-interval and incomplete-publications-interval must be positive")
    boolean isIntervalsPositive() {
        return resubmitInterval == null || incompletePublicationsInterval == null
                || (OutboxProperties.positive(resubmitInterval)
                && OutboxProperties.positive(incompletePublicationsInterval));
    }
}
