package dev.bookstore.ordering.adapters.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;

class CachingJwtDecoderTest {

    private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

    private static final Duration SKEW = Duration.ofSeconds(30);

    /**
     * A decoder that accepts tokens starting with "good" (for this service, expiring an hour after {@link #NOW}) or
     * "foreign" (for another service), and counts calls.
     */
    private final List<String> decoded = new ArrayList<>();
    private final JwtDecoder verifying = token -> {
        decoded.add(token);
        if (!token.startsWith("good") && !token.startsWith("foreign")) {
            throw new BadJwtException("bad signature");
        }
        return Jwt.withTokenValue(token).header("alg", "RS256").subject("customer")
                .audience(List.of(token.startsWith("good") ? "ordering-service" : "billing-api"))
                .issuedAt(NOW).expiresAt(NOW.plus(Duration.ofHours(1))).build();
    };
    private Instant now = NOW;
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };
    private final TokenRules rules = new TokenRules(List.of("ordering-service"), Duration.ofHours(4), SKEW, clock);
    private final CachingJwtDecoder decoder = new CachingJwtDecoder(verifying, rules.all(), rules.timestamps(), 100,
            Duration.ofMinutes(1));

    @Test
    void theSameTokenIsVerifiedOnce() {
        Jwt first = decoder.decode("good-1");
        Jwt second = decoder.decode("good-1");

        assertThat(second).isSameAs(first);
        assertThat(decoded).containsExactly("good-1");
    }

    @Test
    void anotherTokenIsVerifiedOnItsOwn() {
        decoder.decode("good-1");
        decoder.decode("good-2");

        assertThat(decoded).containsExactly("good-1", "good-2");
    }

    @Test
    void aRefusedTokenIsNeverRemembered() {
        assertThatThrownBy(() -> decoder.decode("forged")).isInstanceOf(BadJwtException.class);
        assertThatThrownBy(() -> decoder.decode("forged")).isInstanceOf(BadJwtException.class);

        assertThat(decoded).containsExactly("forged", "forged");
    }

    @Test
    void aTokenTheDelegateVerifiedButTheRulesRefuseIsRefusedAndNeverRemembered() {
        assertThatThrownBy(() -> decoder.decode("foreign-1")).isInstanceOf(JwtValidationException.class)
                .hasMessageContaining("not meant for this service");
        assertThatThrownBy(() -> decoder.decode("foreign-1")).isInstanceOf(JwtValidationException.class);

        assertThat(decoded).containsExactly("foreign-1", "foreign-1");
    }

    @Test
    void aRememberedTokenStillExpiresOnTimeWithTheConfiguredSkew() {
        decoder.decode("good-1");

        now = NOW.plus(Duration.ofHours(1)).plus(SKEW);
        assertThat(decoder.decode("good-1").getSubject()).isEqualTo("customer");

        now = now.plusSeconds(1);
        assertThatThrownBy(() -> decoder.decode("good-1")).isInstanceOf(JwtValidationException.class)
                .hasMessageContaining("expired");
        assertThat(decoded).containsExactly("good-1");
    }
}
