package dev.bookstore.ordering.adapters.web;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

/** Bearer tokens for the slice tests, signed with an RSA key that exists only for this test run. */
final class TestTokens {

    /** The audience the slice tests configure ({@code spring.security.oauth2.resourceserver.jwt.audiences}). */
    static final String AUDIENCE = "ordering";

    private final KeyPair keys;
    private final NimbusJwtEncoder encoder;

    TestTokens() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            keys = generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        RSAKey key = new RSAKey.Builder((RSAPublicKey) keys.getPublic())
                .privateKey((RSAPrivateKey) keys.getPrivate()).keyID("slice-test").build();
        encoder = new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(key)));
    }

    JwtDecoder decoder() {
        return NimbusJwtDecoder.withPublicKey((RSAPublicKey) keys.getPublic()).build();
    }

    /** A customer's token: scope {@code orders}, the customer id as its subject. */
    String customer(UUID customerId) {
        return token(customerId.toString(), "orders");
    }

    /** An operator's token: scope {@code orders.admin}. */
    String operator() {
        return token("operator-1", "orders.admin");
    }

    /** A customer's token made for another service. */
    String customerOfAnotherService(UUID customerId) {
        return token(customerId.toString(), "orders", "another-service");
    }

    private String token(String subject, String scope) {
        return token(subject, scope, AUDIENCE);
    }

    private String token(String subject, String scope, String audience) {
        Instant now = Instant.now();
        JwtClaimsSet claims = JwtClaimsSet.builder()
                .subject(subject)
                .audience(List.of(audience))
                .claim("scope", scope)
                .issuedAt(now)
                .expiresAt(now.plus(Duration.ofMinutes(5)))
                .build();
        JwsHeader header = JwsHeader.with(SignatureAlgorithm.RS256).keyId("slice-test").build();
        return encoder.encode(JwtEncoderParameters.from(header, claims)).getTokenValue();
    }
}
