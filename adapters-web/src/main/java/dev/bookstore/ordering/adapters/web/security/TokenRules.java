package dev.bookstore.ordering.adapters.web.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;

/**
 * What a bearer token must carry besides a trusted signature: an {@code aud} naming this service (unless any is
 * accepted), an {@code exp}, an {@code iat} not in the future, and a lifetime ({@code exp - iat}) of at most the
 * configured maximum; all times with the configured clock skew.
 *
 * <p>{@link #timestamps()} is also given to Boot's decoder as a validator bean, where it takes the place of Spring
 * Security's default one (60 s of skew, {@code exp} optional). {@link CachingJwtDecoder} applies {@link #all()} to
 * every token it verifies, whichever decoder made it, and {@link #timestamps()} again whenever it hands out a
 * remembered one.
 */
final class TokenRules {

    private static final String RFC_6750 = "https://tools.ietf.org/html/rfc6750#section-3.1";

    private final JwtTimestampValidator timestamps;
    private final OAuth2TokenValidator<Jwt> all;

    /**
     * @param audiences the {@code aud} values of this service, any one of which a token must name; empty: any
     *        token is accepted whatever its audience
     */
    TokenRules(List<String> audiences, Duration maxLifetime, Duration clockSkew, Clock clock) {
        this.timestamps = new JwtTimestampValidator(clockSkew);
        this.timestamps.setAllowEmptyExpiryClaim(false);
        this.timestamps.setClock(clock);
        OAuth2TokenValidator<Jwt> lifetime = new Lifetime(maxLifetime, clockSkew, clock);
        this.all = audiences.isEmpty()
                ? new DelegatingOAuth2TokenValidator<>(timestamps, lifetime)
                : new DelegatingOAuth2TokenValidator<>(new Audience(List.copyOf(audiences)), timestamps, lifetime);
    }

    /** {@code exp} (required) and {@code nbf} against the clock: for every use of a token. */
    JwtTimestampValidator timestamps() {
        return timestamps;
    }

    /** Every rule: once for each token that the decoder verified. */
    OAuth2TokenValidator<Jwt> all() {
        return all;
    }

    private static OAuth2TokenValidatorResult invalid(String description) {
        return OAuth2TokenValidatorResult.failure(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN, description,
                RFC_6750));
    }

    /** A token obtained for another API of the same identity provider is not good here. */
    private record Audience(List<String> accepted) implements OAuth2TokenValidator<Jwt> {

        @Override
        public OAuth2TokenValidatorResult validate(Jwt token) {
            List<String> audience = token.getAudience();
            if (audience == null || Collections.disjoint(audience, accepted)) {
                return invalid("The token is not meant for this service: its aud claim does not name it");
            }
            return OAuth2TokenValidatorResult.success();
        }
    }

    /** A token that stays valid for long, if stolen, stays useful for long. */
    private record Lifetime(Duration max, Duration clockSkew, Clock clock) implements OAuth2TokenValidator<Jwt> {

        @Override
        public OAuth2TokenValidatorResult validate(Jwt token) {
            Instant issuedAt = token.getIssuedAt();
            Instant expiresAt = token.getExpiresAt();
            if (issuedAt == null) {
                return invalid("iat is required");
            }
            if (issuedAt.isAfter(clock.instant().plus(clockSkew))) {
                return invalid("Jwt issued in the future, at " + issuedAt);
            }
            if (expiresAt != null && Duration.between(issuedAt, expiresAt).compareTo(max) > 0) {
                return invalid("Jwt valid for longer than " + max + " (exp - iat)");
            }
            return OAuth2TokenValidatorResult.success();
        }
    }
}
