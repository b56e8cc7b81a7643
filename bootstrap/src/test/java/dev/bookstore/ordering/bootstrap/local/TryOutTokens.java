package dev.bookstore.ordering.bootstrap.local;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import dev.bookstore.ordering.adapters.web.security.BearerTokenProperties;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Demo tokens for the try-out run only (never in the production jar): a key pair made at start, the service's
 * {@link JwtDecoder} trusting its public half, and {@code GET /try-out/token} signing tokens with it, so the
 * page and the README's curl examples work with no set-up. By default the token is the demo customer's, who is
 * also an operator (scopes {@code orders orders.admin}); {@code ?customer=<uuid>&scope=orders} makes others. Each
 * is meant for the audience the try-out run configures ({@code application-tryout.yml}) and valid for the longest
 * lifetime the service accepts, as a real identity provider's would be.
 * Only in the try-out profile, like {@link TryOutConfiguration}, which imports it.
 */
@Configuration(proxyBeanMethods = false)
@Profile(TryOutConfiguration.PROFILE)
public class TryOutTokens {

    /** The customer the page and the README's examples order as. */
    public static final UUID DEMO_CUSTOMER = UUID.fromString("0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60");
    private static final Set<String> SCOPES = Set.of("orders", "orders.admin");

    private final KeyPair keys = rsaKeys();

    @Bean
    JwtDecoder tryOutJwtDecoder() {
        return NimbusJwtDecoder.withPublicKey((RSAPublicKey) keys.getPublic()).build();
    }

    @Bean
    JwtEncoder tryOutJwtEncoder() {
        return new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(new RSAKey.Builder((RSAPublicKey) keys.getPublic())
                .privateKey((RSAPrivateKey) keys.getPrivate()).keyID("try-out").build())));
    }

    /** Before the service's own chain: handing out tokens needs none. */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    SecurityFilterChain tryOutTokenSecurity(HttpSecurity http) throws Exception {
        return http.securityMatcher("/try-out/**")
                .authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                .csrf(csrf -> csrf.disable())
                .build();
    }

    @Bean
    RouterFunction<ServerResponse> tryOutTokenEndpoint(JwtEncoder tryOutJwtEncoder,
                                                       OAuth2ResourceServerProperties resourceServer,
                                                       BearerTokenProperties tokens) {
        List<String> audiences = resourceServer.getJwt().getAudiences();
        return RouterFunctions.route().GET("/try-out/token", request -> {
            UUID customer;
            try {
                customer = request.param("customer").map(UUID::fromString).orElse(DEMO_CUSTOMER);
            } catch (IllegalArgumentException e) {
                return ServerResponse.badRequest().body("customer must be a UUID\n");
            }
            String scope = request.param("scope").orElse("orders orders.admin");
            if (!SCOPES.containsAll(List.of(scope.split(" ")))) {
                return ServerResponse.badRequest().body("scope must be made of " + SCOPES + "\n");
            }
            return ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
                    .body(mint(tryOutJwtEncoder, customer, scope, audiences, tokens.maxTokenLifetime()) + "\n");
        }).build();
    }

    private static String mint(JwtEncoder encoder, UUID customer, String scope, List<String> audiences,
                               Duration lifetime) {
        Instant now = Instant.now();
        JwtClaimsSet.Builder claims = JwtClaimsSet.builder()
                .issuer("ordering-service try-out run")
                .subject(customer.toString())
                .issuedAt(now).expiresAt(now.plus(lifetime))
                .claim("scope", scope);
        if (!audiences.isEmpty()) {
            claims.audience(audiences);
        }
        return encoder.encode(JwtEncoderParameters.from(JwsHeader.with(SignatureAlgorithm.RS256).build(),
                claims.build())).getTokenValue();
    }

    private static KeyPair rsaKeys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
