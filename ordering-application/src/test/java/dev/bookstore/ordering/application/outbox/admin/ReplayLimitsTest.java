package dev.bookstore.ordering.application.outbox.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.admin.ReplayLimits.Refusal;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReplayLimitsTest {

    private static final Instant NOW = Instant.parse("2025-03-14T12:00:00Z");
    private final ReplayLimits limits = new ReplayLimits(10_000, Duration.ofHours(24), Duration.ofDays(7));

    @Test
    void aReplayOfOneAggregateOrOfABoundedRangeWithinTheRetentionIsAccepted() {
        assertThat(limits.refusal(new ReplaySelection(null, "order-1", null, null), NOW)).isEmpty();
        assertThat(limits.refusal(new ReplaySelection("order", "order-1", null, null), NOW)).isEmpty();
        assertThat(limits.refusal(new ReplaySelection(null, null, NOW.minusSeconds(3600), NOW), NOW)).isEmpty();
        assertThat(limits.refusal(new ReplaySelection(null, null, NOW.minus(Duration.ofDays(7)),
                NOW.minus(Duration.ofDays(6))), NOW)).isEmpty();
    }

    @Test
    void anUnboundedReplayIsRefused() {
        assertThat(limits.refusal(new ReplaySelection(null, null, null, null), NOW))
                .map(Refusal::field).contains("aggregateId");
        assertThat(limits.refusal(new ReplaySelection("order", null, null, null), NOW))
                .map(Refusal::field).contains("aggregateType");
        assertThat(limits.refusal(new ReplaySelection(null, null, NOW.minusSeconds(60), null), NOW))
                .map(Refusal::field).contains("to");
        assertThat(limits.refusal(new ReplaySelection(null, null, null, NOW), NOW))
                .map(Refusal::field).contains("from");
        assertThat(limits.refusal(new ReplaySelection(null, " ", null, null), NOW))
                .map(Refusal::field).contains("aggregateId");
    }

    @Test
    void aRangeWiderThanTheWindowBackwardsOrPastTheRetentionIsRefused() {
        assertThat(limits.refusal(new ReplaySelection(null, null, NOW.minus(Duration.ofHours(25)), NOW), NOW))
                .map(Refusal::reason).hasValueSatisfying(reason -> assertThat(reason).contains("PT24H"));
        assertThat(limits.refusal(new ReplaySelection(null, null, NOW, NOW.minusSeconds(1)), NOW))
                .map(Refusal::reason).contains("must be after from");
        assertThat(limits.refusal(new ReplaySelection(null, null, NOW.minus(Duration.ofDays(8)),
                NOW.minus(Duration.ofDays(7).plusHours(12))), NOW)).map(Refusal::field).contains("from");
    }
}
