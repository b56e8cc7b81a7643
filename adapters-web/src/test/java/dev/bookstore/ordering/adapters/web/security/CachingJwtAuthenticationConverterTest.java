package dev.bookstore.ordering.adapters.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

class CachingJwtAuthenticationConverterTest {

    private static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");

    private final List<Jwt> converted = new ArrayList<>();
    private final JwtAuthenticationConverter spring = new JwtAuthenticationConverter();
    private final CachingJwtAuthenticationConverter converter = new CachingJwtAuthenticationConverter(jwt -> {
        converted.add(jwt);
        return spring.convert(jwt);
    }, 100);

    @Test
    void theSameTokenIsConvertedOnceAndEveryRequestGetsAnAuthenticationOfItsOwn() {
        Jwt jwt = token("customer-1", "orders");

        AbstractAuthenticationToken first = converter.convert(jwt);
        AbstractAuthenticationToken second = converter.convert(jwt);

        assertThat(converted).containsExactly(jwt);
        assertThat(second).isNotSameAs(first).isInstanceOf(JwtAuthenticationToken.class);
        first.setDetails("the first request's details");
        assertThat(second.getDetails()).isNull();
    }

    @Test
    void aRememberedConversionIsWhatSpringSecurityMakesOfTheToken() {
        Jwt jwt = token("customer-1", "orders orders.admin");
        converter.convert(jwt);

        AbstractAuthenticationToken remembered = converter.convert(jwt);
        AbstractAuthenticationToken fresh = spring.convert(jwt);

        assertThat(remembered.getName()).isEqualTo("customer-1").isEqualTo(fresh.getName());
        assertThat(remembered.isAuthenticated()).isTrue();
        assertThat(remembered.getPrincipal()).isInstanceOf(Jwt.class);
        assertThat(((Jwt) remembered.getPrincipal()).getSubject()).isEqualTo("customer-1");
        assertThat(((JwtAuthenticationToken) remembered).getToken()).isSameAs(jwt);
        assertThat(authorities(remembered)).containsExactlyInAnyOrderElementsOf(authorities(fresh))
                .contains("SCOPE_orders", "SCOPE_orders.admin");
    }

    @Test
    void anotherTokenIsConvertedOnItsOwn() {
        Jwt one = token("customer-1", "orders");
        Jwt other = token("customer-2", "orders.admin");

        AbstractAuthenticationToken first = converter.convert(one);
        AbstractAuthenticationToken second = converter.convert(other);

        assertThat(converted).containsExactly(one, other);
        assertThat(first.getName()).isEqualTo("customer-1");
        assertThat(second.getName()).isEqualTo("customer-2");
        assertThat(authorities(second)).contains("SCOPE_orders.admin").doesNotContain("SCOPE_orders");
    }

    private static Jwt token(String subject, String scope) {
        return Jwt.withTokenValue("token-of-" + subject).header("alg", "RS256").subject(subject).claim("scope", scope)
                .issuedAt(NOW).expiresAt(NOW.plus(Duration.ofHours(1))).build();
    }

    private static List<String> authorities(AbstractAuthenticationToken authentication) {
        return authentication.getAuthorities().stream().map(GrantedAuthority::getAuthority).toList();
    }
}
