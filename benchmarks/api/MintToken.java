import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;

/**
 * A throw-away signing key and one bearer token for the benchmark, with the JDK only: makes an RSA key pair,
 * writes the public key as PEM (for the service's spring.security.oauth2.resourceserver.jwt.public-key-location)
 * and prints an RS256 JWT whose subject is the customer the benchmark orders for, with the given scopes, meant for
 * the given audience (the service's spring.security.oauth2.resourceserver.jwt.audiences) and valid for three hours
 * unless told otherwise (the service refuses lifetimes above ordering.security.max-token-lifetime, default 4h).
 *
 *   java MintToken.java PUBLIC_KEY_PEM SUBJECT "orders orders.admin" AUDIENCE [VALID_SECONDS]
 */
public class MintToken {

    public static void main(String[] args) throws Exception {
        Path publicKeyPem = Path.of(args[0]);
        String subject = args[1];
        String scope = args[2];
        String audience = args[3];
        long validSeconds = args.length > 4 ? Long.parseLong(args[4]) : 3 * 3600;

        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        Files.writeString(publicKeyPem, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(keys.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");

        long now = Instant.now().getEpochSecond();
        String header = base64Url("{\"alg\":\"RS256\",\"typ\":\"JWT\"}");
        String claims = base64Url("{\"sub\":\"" + subject + "\",\"aud\":\"" + audience + "\",\"scope\":\"" + scope
                + "\",\"iat\":" + now
                + ",\"exp\":" + (now + validSeconds) + "}");
        Signature rs256 = Signature.getInstance("SHA256withRSA");
        rs256.initSign(keys.getPrivate());
        rs256.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
        String signature = Base64.getUrlEncoder().withoutPadding().encodeToString(rs256.sign());
        System.out.println(header + "." + claims + "." + signature);
    }

    private static String base64Url(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
