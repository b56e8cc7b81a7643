package dev.bookstore.ordering.adapters.web.security;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What a bearer token must carry besides a trusted signature, under {@code ordering.security}. The audience
 * itself is Boot's standard {@code spring.security.oauth2.resourceserver.jwt.audiences}.
 *
 * @param acceptAnyAudience true to accept tokens whatever their aud claim names, when
 *        spring.security.oauth2.resourceserver.jwt.audiences is not set; only for a key that signs tokens for this
 *        service alone. Without either the service refuses to start
 * @param maxTokenLifetime the longest a token may be valid (exp - iat); a longer-lived token is refused with 401
 * @param clockSkew how far the clocks of the token issuer and this service may disagree when exp, nbf and iat are
 *        checked
 */
@Validated
@ConfigurationProperties("ordering.security")
public record BearerTokenProperties(
        @DefaultValue("false") boolean acceptAnyAudience,
        @DefaultValue("4h") @NotNull Duration maxTokenLifetime,
        @DefaultValue("30s") @NotNull Duration clockSkew) {

    @AssertTrue(message = "max-token-lifetime must be between 1m and 7d")
    boolean isMaxTokenLifetimeSane() {
        return maxTokenLifetime == null || (maxTokenLifetime.compareTo(Duration.ofMinutes(1)) >= 0
                && maxTokenLifetime.compareTo(Duration.ofDays(7)) <= 0);
    }

    @AssertTrue(message = "clock-skew must be between 0s and 5m")
    boolean isClockSkewSane() {
        return clockSkew == null || (!clockSkew.isNegative() && clockSkew.compareTo(Duration.ofMinutes(5)) <= 0);
    }
}
