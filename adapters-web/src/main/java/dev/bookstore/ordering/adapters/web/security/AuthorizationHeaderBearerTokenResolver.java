package dev.bookstore.ordering.adapters.web.security;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenErrors;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.util.StringUtils;

/**
 * Spring Security's {@link DefaultBearerTokenResolver} as it is configured by default (the token from the
 * {@code Authorization} header only, never from an {@code access_token} parameter), with the header's shape checked
 * by a loop instead of a regular expression. Same answers, same errors: {@code null} for a request without a bearer
 * token, the token, or {@code invalid_token} "Bearer token is malformed".
 *
 * <p>Why: a signed token is several hundred characters, and Spring's {@code ^Bearer (?<token>[a-zA-Z0-9-._~+/]+=*)$}
 * walked them with the regex engine's backtracking matchers on every request. A profile of {@code POST /orders} at 32
 * connections put that match at 5 % of the request threads' CPU. {@code AuthorizationHeaderBearerTokenResolverTest}
 * compares both resolvers on named and generated headers.
 */
final class AuthorizationHeaderBearerTokenResolver implements BearerTokenResolver {

    private static final String SCHEME = "bearer";
    /** Where the token starts: after the scheme and exactly one space. */
    private static final int TOKEN_START = SCHEME.length() + 1;

    @Override
    public String resolve(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (!StringUtils.startsWithIgnoreCase(authorization, SCHEME)) {
            return null;
        }
        if (!isBearerCredentials(authorization)) {
            throw new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
        }
        return authorization.substring(TOKEN_START);
    }

    /**
     * {@code Bearer} in any ASCII case, one space, one or more of {@code a-z A-Z 0-9 - . _ ~ + /}, then any number of
     * {@code =}, and nothing else (RFC 6750's {@code b64token}).
     */
    static boolean isBearerCredentials(String authorization) {
        if (authorization.length() <= TOKEN_START || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                || authorization.charAt(SCHEME.length()) != ' ') {
            return false;
        }
        int length = authorization.length();
        int i = TOKEN_START;
        while (i < length && isTokenCharacter(authorization.charAt(i))) {
            i++;
        }
        if (i == TOKEN_START) {
            return false;
        }
        while (i < length && authorization.charAt(i) == '=') {
            i++;
        }
        return i == length;
    }

    private static boolean isTokenCharacter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
    }
}
