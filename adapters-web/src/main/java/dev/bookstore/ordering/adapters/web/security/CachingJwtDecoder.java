package dev.bookstore.ordering.adapters.web.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidationException;

/**
 * Remembers tokens that the real decoder verified, for a short while, so that a client sending the same bearer
 * token with every request pays for parsing, signature verification and claim conversion once, not per request
 * (measured: about a tenth of a request's CPU). The key is the whole token, signature included, so only the very
 * same bytes hit; a token that failed is never remembered. Every token the delegate verified must also pass the
 * service's {@link TokenRules} (audience, expiry, lifetime) before it is remembered, whichever decoder the delegate
 * is (Boot's applies them too; a decoder bean of one's own skips Boot's validators). A remembered token still
 * expires on time: on every hit its {@code exp} is checked again, with the same clock skew, and past it the token
 * is dropped and refused.
 *
 * <p>What the cache changes: a key removed from the issuer's key set stops being trusted for tokens already seen
 * after at most {@code timeToLive}, not at once.
 */
final class CachingJwtDecoder implements JwtDecoder {

    private final JwtDecoder delegate;
    private final OAuth2TokenValidator<Jwt> onVerify;
    private final OAuth2TokenValidator<Jwt> onEveryUse;
    private final Cache<String, Jwt> verified;

    /**
     * @param onVerify what a token the delegate verified must pass before it is used and remembered
     * @param onEveryUse what a remembered token must still pass each time it is used: the checks against the clock
     */
    CachingJwtDecoder(JwtDecoder delegate, OAuth2TokenValidator<Jwt> onVerify, OAuth2TokenValidator<Jwt> onEveryUse,
                      int maximumSize, Duration timeToLive) {
        this.delegate = delegate;
        this.onVerify = onVerify;
        this.onEveryUse = onEveryUse;
        this.verified = Caffeine.newBuilder()
                .maximumSize(maximumSize)
                .expireAfterWrite(timeToLive)
                .executor(Runnable::run)
                .build();
    }

    @Override
    public Jwt decode(String token) throws JwtException {
        Jwt jwt = verified.getIfPresent(token);
        if (jwt == null) {
            jwt = delegate.decode(token);
            requireValid(onVerify.validate(jwt));
            verified.put(token, jwt);
            return jwt;
        }
        OAuth2TokenValidatorResult stillValid = onEveryUse.validate(jwt);
        if (stillValid.hasErrors()) {
            verified.invalidate(token);
            requireValid(stillValid);
        }
        return jwt;
    }

    private static void requireValid(OAuth2TokenValidatorResult result) {
        if (result.hasErrors()) {
            throw new JwtValidationException(result.getErrors().iterator().next().getDescription(),
                    result.getErrors());
        }
    }
}
