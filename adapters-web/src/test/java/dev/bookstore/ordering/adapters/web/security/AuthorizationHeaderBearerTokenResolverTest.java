package dev.bookstore.ordering.adapters.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

/** The resolver answers exactly as Spring Security's default one: the same token, the same error, or nothing. */
class AuthorizationHeaderBearerTokenResolverTest {

    private final BearerTokenResolver spring = new DefaultBearerTokenResolver();
    private final BearerTokenResolver resolver = new AuthorizationHeaderBearerTokenResolver();

    @Test
    void aBearerTokenIsTheHeaderAfterTheScheme() {
        assertThat(resolver.resolve(request("Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln-_~+/=="))).isEqualTo(
                "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln-_~+/==");
        assertThat(resolver.resolve(request("bEaReR abc"))).isEqualTo("abc");
    }

    @Test
    void noHeaderOrAnotherSchemeIsNoToken() {
        assertThat(resolver.resolve(new MockHttpServletRequest("POST", "/orders"))).isNull();
        assertThat(resolver.resolve(request("Basic dXNlcjpwYXNz"))).isNull();
        assertThat(resolver.resolve(request("Bear abc"))).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer", "Bearer ", "Bearer  abc", "Bearer\tabc", "Bearerabc", "Bearer abc def",
            "Bearer =abc", "Bearer abc=d", "Bearer abc\n", "Bearer abc ", "Bearer ab%63", "Bearer ab,c", "Bearer é",
            "Bearer abc\u0000", "Bearer ===", "Bearer\u00a0abc", "Bearer ab\"c\""})
    void aMalformedBearerHeaderIsTheSameErrorAsSprings(String header) {
        assertThat(outcome(resolver, header)).startsWith("error invalid_token").isEqualTo(outcome(spring, header));
    }

    /**
     * Generated headers, seeded so that a failure can be run again: schemes in several cases and near misses, then
     * token characters mixed with the characters around the rule's edges (padding, spaces, controls, non-ASCII
     * letters, letters whose case maps to ASCII, a surrogate pair).
     */
    @Test
    void generatedHeadersGetSpringsAnswer() {
        String[] schemes = {"Bearer ", "bearer ", "BEARER ", "bEARER ", "Bearer", "Bearer  ", "Bearer\t", "Basic ",
                "", "Beare", "Bearerx ", "bearer\u00a0", " Bearer ", "Bearer\n"};
        String alphabet = "aZz09-._~+/=" + "= \t\n\r\u0000\u007f%,;:\"\\'é\u017f\u212a\u0130\u0131\u00a0\ud83d\ude00";
        Random random = new Random(20261204L);
        List<String> disagreements = new ArrayList<>();
        for (int n = 0; n < 50_000; n++) {
            StringBuilder header = new StringBuilder(schemes[random.nextInt(schemes.length)]);
            int length = random.nextInt(24);
            for (int i = 0; i < length; i++) {
                // mostly token characters, so that well-formed and nearly well-formed tokens both come up
                String from = random.nextInt(4) == 0 ? alphabet : "aZz09-._~+/";
                header.append(from.charAt(random.nextInt(from.length())));
            }
            String value = header.toString();
            if (!outcome(resolver, value).equals(outcome(spring, value))) {
                disagreements.add(value);
            }
        }
        assertThat(disagreements).isEmpty();
    }

    private static String outcome(BearerTokenResolver resolver, String header) {
        try {
            return "token " + resolver.resolve(request(header));
        } catch (OAuth2AuthenticationException e) {
            return "error " + e.getError().getErrorCode() + " " + e.getError().getDescription();
        }
    }

    private static MockHttpServletRequest request(String authorization) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/orders");
        request.addHeader("Authorization", authorization);
        return request;
    }
}
