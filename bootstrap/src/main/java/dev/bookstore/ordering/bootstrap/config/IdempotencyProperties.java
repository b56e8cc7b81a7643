package dev.bookstore.ordering.bootstrap.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The {@code Idempotency-Key} of {@code POST /orders}, under {@code ordering.idempotency}. Bad values stop the
 * service at start-up with the name of the property.
 *
 * @param retention how long a key is kept: a retry within this time gets the order the key placed, a request
 *                  after it (once the key is deleted) places a new order
 * @param retentionInterval how often each instance deletes expired keys
 * @param retentionChunk keys deleted per statement; at most 2,000, so a delete on SQL Server holds fewer than the
 *                       5,000 locks that make it escalate to a table lock (which would hold up new keys)
 */
@Validated
@ConfigurationProperties("ordering.idempotency")
public record IdempotencyProperties(
        @DefaultValue("24h") @NotNull @DurationMin(seconds = 1) @DurationMax(days = 365) Duration retention,
        @DefaultValue("1m") @NotNull @DurationMin(seconds = 1) @DurationMax(days = 1) Duration retentionInterval,
        @DefaultValue("1000") @Min(1) @Max(2000) int retentionChunk) {
}
