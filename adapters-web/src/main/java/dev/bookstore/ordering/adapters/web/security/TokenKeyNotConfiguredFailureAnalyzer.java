package dev.bookstore.ordering.adapters.web.security;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A start without a token verification key ends with one message saying which of Boot's standard properties to
 * set. Registered in {@code META-INF/spring.factories}.
 */
class TokenKeyNotConfiguredFailureAnalyzer extends AbstractFailureAnalyzer<TokenKeyNotConfiguredException> {

    static final String DESCRIPTION = """
            No key to verify bearer tokens with is configured. Every call to the API but health, info and the \
            page carries a JWT: the service must know the key that signs them.""";

    static final String ACTION = """
            Set one of Boot's resource-server properties, as an argument or environment variable:

                --spring.security.oauth2.resourceserver.jwt.issuer-uri=https://<your identity provider>/<realm>
                --spring.security.oauth2.resourceserver.jwt.jwk-set-uri=https://<your identity provider>/<jwks>
                --spring.security.oauth2.resourceserver.jwt.public-key-location=file:<path to a PEM public key>

            Customers need scope 'orders' and their customer id as the token's subject; operators scope \
            'orders.admin'. To try the service out instead (it signs its own demo tokens), run in a checkout:

                ./mvnw -q install -DskipTests && ./mvnw -pl bootstrap spring-boot:test-run""";

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, TokenKeyNotConfiguredException cause) {
        return new FailureAnalysis(DESCRIPTION, ACTION, cause);
    }
}
