package dev.bookstore.ordering.adapters.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;

/** The rules a verified token must also pass, one claim at a time, against a fixed clock. */
class TokenRulesTest {

    private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");
    private static final Duration MAX_LIFETIME = Duration.ofHours(4);
    private static final Duration SKEW = Duration.ofSeconds(30);

    private final TokenRules rules = new TokenRules(List.of("ordering-service", "ordering-api"), MAX_LIFETIME, SKEW,
            Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void aTokenForThisServiceIssuedNowForAnHourPasses() {
        assertThat(rules.all().validate(token(claims -> { })).hasErrors()).isFalse();
    }

    @Test
    void anyOneOfTheConfiguredAudiencesIsEnough() {
        assertThat(errors(token(claims -> claims.audience(List.of("billing-api", "ordering-api"))))).isEmpty();
    }

    @Test
    void aTokenForAnotherServiceOrForNoneIsRefused() {
        assertThat(errors(token(claims -> claims.audience(List.of("billing-api")))))
                .containsExactly("The token is not meant for this service: its aud claim does not name it");
        assertThat(errors(token(claims -> claims.claims(all -> all.remove("aud"))))).hasSize(1);
    }

    @Test
    void withoutConfiguredAudiencesAnyAudienceIsAccepted() {
        TokenRules anyAudience = new TokenRules(List.of(), MAX_LIFETIME, SKEW, Clock.fixed(NOW, ZoneOffset.UTC));

        assertThat(anyAudience.all().validate(token(claims -> claims.audience(List.of("billing-api"))))
                .hasErrors()).isFalse();
    }

    @Test
    void aTokenWithoutExpiryIsRefused() {
        assertThat(errors(token(claims -> claims.claims(all -> all.remove("exp"))))).containsExactly("exp is required");
    }

    @Test
    void aTokenWithoutIssuedAtIsRefused() {
        assertThat(errors(token(claims -> claims.claims(all -> all.remove("iat"))))).containsExactly("iat is required");
    }

    @Test
    void aLifetimeUpToTheMaximumPassesAndASecondMoreIsRefused() {
        assertThat(errors(token(claims -> claims.expiresAt(NOW.plus(MAX_LIFETIME))))).isEmpty();
        assertThat(errors(token(claims -> claims.expiresAt(NOW.plus(MAX_LIFETIME).plusSeconds(1)))))
                .containsExactly("Jwt valid for longer than PT4H (exp - iat)");
    }

    @Test
    void aLongLifetimeIsRefusedEvenWhenTheTokenWasIssuedLongAgo() {
        assertThat(errors(token(claims -> claims.issuedAt(NOW.minus(Duration.ofDays(300)))
                .expiresAt(NOW.plus(Duration.ofMinutes(5)))))).hasSize(1);
    }

    @Test
    void aTokenIssuedInTheFutureBeyondTheSkewIsRefused() {
        assertThat(errors(token(claims -> claims.issuedAt(NOW.plus(SKEW)).expiresAt(NOW.plus(Duration.ofHours(1))))))
                .isEmpty();
        assertThat(errors(token(claims -> claims.issuedAt(NOW.plus(SKEW).plusSeconds(1))
                .expiresAt(NOW.plus(Duration.ofHours(1)))))).singleElement().asString().contains("in the future");
    }

    @Test
    void expiryIsCheckedWithTheConfiguredSkewNotSpringSecuritysMinute() {
        assertThat(errors(token(claims -> claims.issuedAt(NOW.minus(Duration.ofHours(1))).expiresAt(NOW.minus(SKEW)))))
                .isEmpty();
        assertThat(errors(token(claims -> claims.issuedAt(NOW.minus(Duration.ofHours(1)))
                .expiresAt(NOW.minus(SKEW).minusSeconds(1))))).singleElement().asString().contains("expired");
        assertThat(rules.timestamps().validate(token(claims -> claims.issuedAt(NOW.minus(Duration.ofHours(1)))
                .expiresAt(NOW.minus(SKEW).minusSeconds(1)))).hasErrors()).isTrue();
    }

    @Test
    void everyRefusalIsAnInvalidTokenErrorOfRfc6750() {
        OAuth2TokenValidatorResult result = rules.all().validate(token(claims -> claims.audience(List.of("other"))));

        assertThat(result.getErrors()).extracting(OAuth2Error::getErrorCode).containsExactly("invalid_token");
    }

    @Test
    void theMissingAudienceStopsTheStartUnlessAnyAudienceIsAcceptedExplicitly() {
        assertThatThrownBy(() -> WebSecurityConfiguration.requireAudience(List.of(), false))
                .isInstanceOf(TokenAudienceNotConfiguredException.class)
                .hasMessageContaining("spring.security.oauth2.resourceserver.jwt.audiences");

        WebSecurityConfiguration.requireAudience(List.of(), true);
        WebSecurityConfiguration.requireAudience(List.of("ordering-service"), false);
    }

    /** Issued now for this service, valid for an hour; {@code adjust} changes any claim. */
    private static Jwt token(Consumer<Jwt.Builder> adjust) {
        Jwt.Builder builder = Jwt.withTokenValue("t").header("alg", "RS256").subject("customer")
                .audience(List.of("ordering-service")).issuedAt(NOW).expiresAt(NOW.plus(Duration.ofHours(1)));
        adjust.accept(builder);
        return builder.build();
    }

    private List<String> errors(Jwt token) {
        return rules.all().validate(token).getErrors().stream().map(OAuth2Error::getDescription).toList();
    }
}
