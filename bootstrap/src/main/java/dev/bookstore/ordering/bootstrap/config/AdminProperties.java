package dev.bookstore.ordering.bootstrap.config;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The operator's outbox API ({@code /admin/outbox}), under {@code ordering.admin}.
 *
 * @param replayMaxMessages the most published messages one replay may queue; a wider replay is refused with 400
 * @param replayMaxWindow the widest time range one replay may name
 * @param requeueChunk parked messages made pending per statement when all are requeued
 */
@Validated
@ConfigurationProperties("ordering.admin")
public record AdminProperties(
        @DefaultValue("10000") @Min(1) @Max(100000) int replayMaxMessages,
        @DefaultValue("24h") @NotNull Duration replayMaxWindow,
        @DefaultValue("500") @Min(1) @Max(2000) int requeueChunk) {

    @AssertTrue(message = "replay-max-window must be between 1s and 31d")
    boolean isReplayMaxWindowSane() {
        return replayMaxWindow == null || (replayMaxWindow.compareTo(Duration.ofSeconds(1)) >= 0
                && replayMaxWindow.compareTo(Duration.ofDays(31)) <= 0);
    }
}
