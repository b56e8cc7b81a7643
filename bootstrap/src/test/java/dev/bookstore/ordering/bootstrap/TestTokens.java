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
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

/**
 * Bearer tokens for tests, signed with a throw-away RSA key made once per test JVM, meant for {@link #AUDIENCE}.
 * The service under test verifies them with the public key and checks their audience, both given through Boot's
 * standard properties ({@link #PUBLIC_KEY_PROPERTY} = {@link #publicKeyLocation()}, {@link #AUDIENCES_PROPERTY} =
 * {@link #AUDIENCE}), exactly as a production deployment would.
 */
public final class TestTokens {

    public static final String PUBLIC_KEY_PROPERTY = "spring.security.oauth2.resourceserver.jwt.public-key-location";
    public static final String AUDIENCES_PROPERTY = "spring.security.oauth2.resourceserver.jwt.audiences";
    /** The {@code aud} of the service under test. */
    public static final String AUDIENCE = "ordering-service";

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
        return token(customerId.toString(), "orders", ENCODER, claims -> { });
    }

    /** An operator who may also place orders: scopes {@code orders orders.admin}. */
    public static String operator() {
        return token("operator", "orders orders.admin", ENCODER, claims -> { });
    }

    public static String withScope(String subject, String scope) {
        return token(subject, scope, ENCODER, claims -> { });
    }

    /** Issued an hour and ten minutes ago, expired ten minutes ago. */
    public static String expired(UUID customerId) {
        Instant expiredAt = Instant.now().minus(Duration.ofMinutes(10));
        return token(customerId.toString(), "orders", ENCODER,
                claims -> claims.issuedAt(expiredAt.minus(Duration.ofHours(1))).expiresAt(expiredAt));
    }

    /** Signed by a key the service does not know. */
    public static String signedByAnotherKey(UUID customerId) {
        JwtEncoder other = new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(
                new RSAKey.Builder((RSAPublicKey) OTHER_KEYS.getPublic())
                        .privateKey((RSAPrivateKey) OTHER_KEYS.getPrivate()).keyID("test").build())));
        return token(customerId.toString(), "orders", other, claims -> { });
    }

    /** A customer's token, good but for its {@code aud}: the given audiences instead of {@link #AUDIENCE}. */
    public static String forAudience(UUID customerId, String... audiences) {
        return token(customerId.toString(), "orders", ENCODER, claims -> claims.audience(List.of(audiences)));
    }

    /** A customer's token without any {@code aud}. */
    public static String withoutAudience(UUID customerId) {
        return token(customerId.toString(), "orders", ENCODER, claims -> claims.claims(all -> all.remove("aud")));
    }

    /** A customer's token without {@code exp}: one that never expires. */
    public static String withoutExpiry(UUID customerId) {
        return token(customerId.toString(), "orders", ENCODER, claims -> claims.claims(all -> all.remove("exp")));
    }

    /** A customer's token issued now and valid for {@code lifetime}. */
    public static String validFor(UUID customerId, Duration lifetime) {
        return token(customerId.toString(), "orders", ENCODER,
                claims -> claims.expiresAt(Instant.now().plus(lifetime)));
    }

    /** Issued now for {@link #AUDIENCE}, valid for an hour; {@code adjust} changes any claim. */
    private static String token(String subject, String scope, JwtEncoder encoder,
                                Consumer<JwtClaimsSet.Builder> adjust) {
        Instant now = Instant.now();
        JwtClaimsSet.Builder claims = JwtClaimsSet.builder().subject(subject).audience(List.of(AUDIENCE))
                .issuedAt(now).expiresAt(now.plus(Duration.ofHours(1))).claim("scope", scope);
        adjust.accept(claims);
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
