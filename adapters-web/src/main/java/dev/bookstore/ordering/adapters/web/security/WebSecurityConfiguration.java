package dev.bookstore.ordering.adapters.web.security;

import dev.bookstore.ordering.adapters.web.Caller;
import dev.bookstore.ordering.adapters.web.PrintableAsciiHeaders;
import dev.bookstore.ordering.adapters.web.problem.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.authentication.AuthenticationEventPublisher;
import org.springframework.security.authentication.DefaultAuthenticationEventPublisher;
import org.springframework.security.authentication.event.AuthenticationFailureBadCredentialsEvent;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.access.BearerTokenAccessDeniedHandler;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.util.matcher.RequestMatcher;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service as an OAuth2 resource server: every call but health, info, the API description and the static
 * page (and the actuator on a separate management port) carries a JWT, verified with the key Boot's standard properties name
 * ({@code spring.security.oauth2.resourceserver.jwt.issuer-uri}, {@code jwk-set-uri} or
 * {@code public-key-location}), meant for this service ({@code aud}, Boot's {@code audiences}; the service does not
 * start without it unless {@code ordering.security.accept-any-audience} is set) and short-lived ({@code exp}
 * required, {@code exp - iat} at most {@code ordering.security.max-token-lifetime}; {@link TokenRules}).
 *
 * <ul>
 *   <li>scope {@code orders}: a customer, whose id is the token's subject, places orders as itself and reads and
 *       cancels its own (which orders it sees is decided by {@link Caller} in the controller);</li>
 *   <li>scope {@code orders.admin}: an operator: all orders, the outbox statistics and its repairs
 *       ({@code /admin/**}), every operational endpoint and the actuator beyond health and info.</li>
 * </ul>
 *
 * A missing, expired, foreign or badly signed token answers 401 with {@code WWW-Authenticate}, a missing scope
 * 403; both as problem details. Stateless: no session, no cookie, so no CSRF token either.
 */
@Configuration(proxyBeanMethods = false)
public class WebSecurityConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(WebSecurityConfiguration.class);

    private static final String CUSTOMER = "SCOPE_" + Caller.CUSTOMER_SCOPE;
    private static final String OPERATOR = "SCOPE_" + Caller.OPERATOR_SCOPE;

    /** Verified tokens remembered ({@link CachingJwtDecoder}): enough for this many clients, each for a minute. */
    private static final int VERIFIED_TOKENS = 10_000;
    private static final Duration VERIFIED_TOKEN_TTL = Duration.ofMinutes(1);

    /**
     * No Micrometer observation around every security filter and every authentication: measured, it wrapped each
     * of the chain's filters in an observation and made the security chain cost more than the order itself. The
     * request as a whole is still observed ({@code http.server.requests}).
     */
    @Bean
    static SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    /**
     * Failed authentications are published as Spring Security's events (an audit listener may want a bad, expired
     * or foreign token); successful ones are not. With bearer tokens every request authenticates, and each success
     * event went through the application's event multicaster (Spring Modulith's, which looks for listeners whose
     * publication it must store) on the request thread: 1.2 % of the request threads' CPU in a profile of
     * {@code POST /orders}, for an event nothing here listens to.
     */
    @Bean
    AuthenticationEventPublisher authenticationEventPublisher(ApplicationEventPublisher events) {
        DefaultAuthenticationEventPublisher failures = new DefaultAuthenticationEventPublisher(events);
        // a bad, expired or foreign bearer token is bad credentials (unmapped, it would publish nothing)
        failures.setDefaultAuthenticationFailureEvent(AuthenticationFailureBadCredentialsEvent.class);
        return new FailuresOnly(failures);
    }

    private record FailuresOnly(AuthenticationEventPublisher delegate) implements AuthenticationEventPublisher {

        @Override
        public void publishAuthenticationSuccess(Authentication authentication) {
            // every request's token: not an event worth a multicast
        }

        @Override
        public void publishAuthenticationFailure(AuthenticationException exception, Authentication authentication) {
            delegate.publishAuthenticationFailure(exception, authentication);
        }
    }

    @Bean
    TokenRules tokenRules(OAuth2ResourceServerProperties resourceServer, BearerTokenProperties tokens) {
        return new TokenRules(resourceServer.getJwt().getAudiences(), tokens.maxTokenLifetime(), tokens.clockSkew(),
                Clock.systemUTC());
    }

    /**
     * The expiry rule as a validator bean: Boot's decoder puts it beside its issuer and audience validators, in the
     * place of Spring Security's default (60 s of skew, a token without {@code exp} accepted).
     */
    @Bean
    JwtTimestampValidator tokenTimestampValidator(TokenRules tokenRules) {
        return tokenRules.timestamps();
    }

    /** Spring's firewall, its header checks behind a fast path for printable ASCII ({@link PrintableAsciiHeaders}). */
    @Bean
    WebSecurityCustomizer printableAsciiHeadersFirewall() {
        return web -> web.httpFirewall(PrintableAsciiHeaders.firewall());
    }

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http, ObjectProvider<JwtDecoder> jwtDecoder,
                                            ObjectProvider<JwtAuthenticationConverter> jwtConverter,
                                            TokenRules tokenRules,
                                            OAuth2ResourceServerProperties resourceServerProperties,
                                            BearerTokenProperties tokens, JsonMapper json, Environment environment)
            throws Exception {
        JwtDecoder decoder = jwtDecoder.getIfAvailable();
        if (decoder == null) {
            throw new TokenKeyNotConfiguredException();
        }
        requireAudience(resourceServerProperties.getJwt().getAudiences(), tokens.acceptAnyAudience());
        JwtDecoder cachingDecoder = new CachingJwtDecoder(decoder, tokenRules.all(), tokenRules.timestamps(),
                VERIFIED_TOKENS, VERIFIED_TOKEN_TTL);
        // Boot's converter where its properties (authorities-claim-name, principal-claim-name, ...) made one
        CachingJwtAuthenticationConverter cachingConverter = new CachingJwtAuthenticationConverter(
                jwtConverter.getIfAvailable(JwtAuthenticationConverter::new), VERIFIED_TOKENS);
        ProblemWriter problems = new ProblemWriter(json);
        http.authorizeHttpRequests(requests -> requests
                        .requestMatchers(managementPort(environment)).permitAll()
                        .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/info").permitAll()
                        .requestMatchers(HttpMethod.GET, "/", "/index.html", "/app.js", "/style.css",
                                "/favicon.ico", "/v3/api-docs", "/v3/api-docs/**").permitAll()
                        .requestMatchers("/error").permitAll()
                        .requestMatchers(HttpMethod.POST, "/orders").hasAuthority(CUSTOMER)
                        .requestMatchers(HttpMethod.GET, "/orders", "/orders/*").hasAnyAuthority(CUSTOMER, OPERATOR)
                        .requestMatchers(HttpMethod.POST, "/orders/*/cancel").hasAnyAuthority(CUSTOMER, OPERATOR)
                        .requestMatchers(HttpMethod.GET, "/customers/me/order-summary").hasAuthority(CUSTOMER)
                        .requestMatchers(HttpMethod.GET, "/customers/*/order-summary")
                        .hasAnyAuthority(CUSTOMER, OPERATOR)
                        // The operator's outbox API; anyRequest() below would cover it too, named so that no
                        // rule added above can open it by accident.
                        .requestMatchers("/admin/**").hasAuthority(OPERATOR)
                        .anyRequest().hasAuthority(OPERATOR))
                .oauth2ResourceServer(resourceServer -> resourceServer
                        .bearerTokenResolver(new AuthorizationHeaderBearerTokenResolver())
                        .jwt(jwt -> jwt.decoder(cachingDecoder).jwtAuthenticationConverter(cachingConverter))
                        .authenticationEntryPoint(problems.unauthorized())
                        .accessDeniedHandler(problems.forbidden()))
                .exceptionHandling(exceptions -> exceptions
                        .authenticationEntryPoint(problems.unauthorized())
                        .accessDeniedHandler(problems.forbidden()))
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .csrf(csrf -> csrf.disable())
                // No session to end. Spring Security's logout filter answered any POST /logout, with a token or
                // without, by a redirect to a login page that does not exist, and matched every request against it.
                .logout(logout -> logout.disable())
                .requestCache(cache -> cache.disable());
        return http.build();
    }

    /** Tokens name the service they are meant for, unless the deployment says explicitly that any will do. */
    static void requireAudience(List<String> audiences, boolean acceptAnyAudience) {
        if (!audiences.isEmpty()) {
            return;
        }
        if (!acceptAnyAudience) {
            throw new TokenAudienceNotConfiguredException();
        }
        LOG.warn("Bearer tokens are accepted whatever their audience (ordering.security.accept-any-audience=true): "
                + "a token the key's issuer made for another service is good here too");
    }

    /**
     * Requests that arrive on {@code management.server.port}, when it is set apart from {@code server.port}: that
     * port serves the actuator only and is meant to be reachable only from inside the network (a Prometheus
     * scraper, the orchestrator's probes), so it asks for no token. Without it, everything goes through the
     * rules above, {@code /actuator/prometheus} with an operator's token.
     */
    static RequestMatcher managementPort(Environment environment) {
        int management = environment.getProperty("management.server.port", Integer.class, -1);
        int server = environment.getProperty("server.port", Integer.class, 8080);
        if (management <= 0 || management == server) {
            return request -> false;
        }
        return request -> request.getLocalPort() == management;
    }

    /** 401 and 403 as problem details, with the {@code WWW-Authenticate} header of RFC 6750. */
    private static final class ProblemWriter {

        private final JsonMapper json;
        private final BearerTokenAuthenticationEntryPoint bearerEntryPoint = new BearerTokenAuthenticationEntryPoint();
        private final BearerTokenAccessDeniedHandler bearerAccessDenied = new BearerTokenAccessDeniedHandler();

        ProblemWriter(JsonMapper json) {
            this.json = json;
        }

        AuthenticationEntryPoint unauthorized() {
            return (request, response, exception) -> {
                bearerEntryPoint.commence(request, response, exception);
                write(request, response, HttpStatus.UNAUTHORIZED, "Authentication required",
                        "A valid bearer token is required: it is missing, expired, not meant for this service or "
                                + "not signed by a trusted key.");
            };
        }

        AccessDeniedHandler forbidden() {
            return (request, response, exception) -> {
                bearerAccessDenied.handle(request, response, exception);
                write(request, response, HttpStatus.FORBIDDEN, "Forbidden",
                        "The token does not grant this: it lacks the scope the request needs.");
            };
        }

        private void write(HttpServletRequest request, HttpServletResponse response, HttpStatus status,
                           String title, String detail) throws IOException {
            ProblemDetail problem = ProblemResponses.problem(status, title, detail);
            problem.setInstance(URI.create(request.getRequestURI()));
            response.setStatus(status.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            json.writeValue(response.getOutputStream(), problem);
        }
    }
}
