package dev.bookstore.ordering.bootstrap;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

/**
 * Bearer tokens for tests, signed with a throw-away RSA key made once per test JVM. The service under test
 * verifies them with the public key, given through Boot's standard property
 * ({@link #PUBLIC_KEY_PROPERTY} = {@link #publicKeyLocation()}), exactly as a production key would be.
 */
public final class TestTokens {

    public static final String PUBLIC_KEY_PROPERTY = "spring.security.oauth2.resourceserver.jwt.public-key-location";

    private static final KeyPair KEYS = rsaKeys();
    private static final JwtEncoder ENCODER = new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(
            new RSAKey.Builder((RSAPublicKey) KEYS.getPublic()).privateKey((RSAPrivateKey) KEYS.getPrivate())
                    .keyID("test").build())));
    private static final KeyPair OTHER_KEYS = rsaKeys();
    private static String publicKeyLocation;

    private TestTokens() {
    }

    /** A {@code file:} location of the public key in PEM, written once. */
    public static synchronized String publicKeyLocation() {
        if (publicKeyLocation == null) {
            try {
                Path pem = Files.createTempFile("ordering-test-key", ".pem");
                pem.toFile().deleteOnExit();
                Files.writeString(pem, "-----BEGIN PUBLIC KEY-----\n"
                        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(KEYS.getPublic().getEncoded())
                        + "\n-----END PUBLIC KEY-----\n");
                publicKeyLocation = pem.toUri().toString();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return publicKeyLocation;
    }

    /** A customer: subject = the customer id, scope {@code orders}, valid for an hour. */
    public static String customer(UUID customerId) {
        return token(customerId.toString(), "orders", Instant.now().plus(Duration.ofHours(1)), ENCODER);
    }

    /** An operator who may also place orders: scopes {@code orders orders.admin}. */
    public static String operator() {
        return token("operator", "orders orders.admin", Instant.now().plus(Duration.ofHours(1)), ENCODER);
    }

    public static String withScope(String subject, String scope) {
        return token(subject, scope, Instant.now().plus(Duration.ofHours(1)), ENCODER);
    }

    public static String expired(UUID customerId) {
        return token(customerId.toString(), "orders", Instant.now().minus(Duration.ofMinutes(10)), ENCODER);
    }

    /** Signed by a key the service does not know. */
    public static String signedByAnotherKey(UUID customerId) {
        JwtEncoder other = new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(
                new RSAKey.Builder((RSAPublicKey) OTHER_KEYS.getPublic())
                        .privateKey((RSAPrivateKey) OTHER_KEYS.getPrivate()).keyID("test").build())));
        return token(customerId.toString(), "orders", Instant.now().plus(Duration.ofHours(1)), other);
    }

    private static String token(String subject, String scope, Instant expiresAt, JwtEncoder encoder) {
        Instant issuedAt = expiresAt.minus(Duration.ofHours(2)).isBefore(Instant.now())
                ? expiresAt.minus(Duration.ofHours(1)) : Instant.now();
        JwtClaimsSet claims = JwtClaimsSet.builder().subject(subject).issuedAt(issuedAt).expiresAt(expiresAt)
                .claim("scope", scope).build();
        return encoder.encode(JwtEncoderParameters.from(JwsHeader.with(SignatureAlgorithm.RS256).build(), claims))
                .getTokenValue();
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
