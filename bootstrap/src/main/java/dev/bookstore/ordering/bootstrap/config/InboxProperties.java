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
 * The consumer side's inbox ({@code inbox_message}), under {@code ordering.inbox}.
 *
 * @param retention how long a processed message id is kept: a redelivery within it is recognised and dropped.
 *                  Keep it longer than any consumer can be behind (the broker's retention of a backlog)
 * @param retentionInterval how often each instance deletes older rows
 * @param retentionChunk rows deleted per statement; at most 2,000, so a delete on SQL Server stays below the
 *                       5,000 locks that escalate to a table lock
 */
@Validated
@ConfigurationProperties("ordering.inbox")
public record InboxProperties(
        @DefaultValue("7d") @NotNull Duration retention,
        @DefaultValue("1m") @NotNull Duration retentionInterval,
        @DefaultValue("1000") @Min(1) @Max(2000) int retentionChunk) {

    @AssertTrue(message = "retention must be between 1s and 365d")
    boolean isRetentionSane() {
        return retention == null
                || (retention.compareTo(Duration.ofSeconds(1)) >= 0 && retention.compareTo(Duration.ofDays(365)) <= 0);
    }

    @AssertTrue(message = "retention-interval must be between 1s and 1d")
    boolean isRetentionIntervalSane() {
        return retentionInterval == null || (retentionInterval.compareTo(Duration.ofSeconds(1)) >= 0
                && retentionInterval.compareTo(Duration.ofDays(1)) <= 0);
    }
}
