package dev.bookstore.ordering.peer;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The plain dual-write peer of the API benchmark: what the ordering service would be without its outbox. Same
 * Spring Boot, Tomcat, JWT resource server and tables; {@link OrderController} writes the order with JDBC and then
 * publishes its event to RabbitMQ itself. Built for the benchmark only (benchmarks/api/README.md).
 */
@SpringBootApplication
public class PeerApplication {

    static final String EXCHANGE = "bookstore.ordering";

    public static void main(String[] args) {
        SpringApplication.run(PeerApplication.class, args);
    }

    /** The service's exchange: a durable topic, declared at the first connection (compatible with the service's). */
    @Bean
    TopicExchange orderingExchange() {
        return new TopicExchange(EXCHANGE, true, false);
    }

    /**
     * The service's checks on POST /orders: a token signed by the configured key, naming the configured audience,
     * not expired (Boot's decoder, from the same properties), with scope {@code orders}; no session, no CSRF.
     */
    @Bean
    SecurityFilterChain security(HttpSecurity http, JwtDecoder bootDecoder) throws Exception {
        http.authorizeHttpRequests(requests -> requests
                        .requestMatchers("/actuator/health", "/error").permitAll() // /error: a 400 stays a 400
                        .requestMatchers(HttpMethod.POST, "/orders").hasAuthority("SCOPE_orders")
                        .anyRequest().denyAll())
                .oauth2ResourceServer(resourceServer -> resourceServer
                        .jwt(jwt -> jwt.decoder(rememberVerified(bootDecoder))))
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .csrf(csrf -> csrf.disable());
        return http.build();
    }

    /** No Micrometer observation around each security filter: the service turned them off too (they cost it more
     * than the order itself). The request as a whole is still observed, in both. */
    @Bean
    static SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    /**
     * Boot's decoder, remembering the tokens it verified: the service verifies a token's signature once and keeps
     * it for a while (measured there at about a tenth of a request's CPU), so the peer does too, and the comparison
     * measures the write path, not RSA. A remembered token is taken again until it expires.
     */
    static JwtDecoder rememberVerified(JwtDecoder verifier) {
        Map<String, Jwt> verified = new ConcurrentHashMap<>();
        return token -> {
            Jwt jwt = verified.get(token);
            if (jwt == null || !jwt.getExpiresAt().isAfter(Instant.now())) {
                jwt = verifier.decode(token); // a bad, foreign or expired token throws: 401
                if (verified.size() >= 10_000) {
                    verified.clear();
                }
                verified.put(token, jwt);
            }
            return jwt;
        };
    }
}
