package dev.bookstore.ordering.adapters.web.security;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A start without the tokens' audience ends with one message saying which property to set. An identity provider
 * signs tokens for many APIs with one key: without an audience to check, a token obtained for any of them would be
 * good here. Registered in {@code META-INF/spring.factories}.
 */
class TokenAudienceNotConfiguredFailureAnalyzer extends AbstractFailureAnalyzer<TokenAudienceNotConfiguredException> {

    static final String AUDIENCES = "spring.security.oauth2.resourceserver.jwt.audiences";
    static final String ACCEPT_ANY_AUDIENCE = "ordering.security.accept-any-audience";

    static final String DESCRIPTION = """
            No audience for bearer tokens is configured: %s is not set. Without it a token that the identity \
            provider issued for any other API would be accepted here.""".formatted(AUDIENCES);

    static final String ACTION = """
            Set the audience your identity provider puts in the aud claim of the tokens it issues for this \
            service (several separated by commas), as an argument or environment variable:

                --%s=<this service's audience, e.g. ordering-service>

            Only if the key signs tokens for this service alone, accept any audience instead:

                --%s=true

            To try the service out instead (it signs its own demo tokens), run in a checkout:

                ./mvnw -q install -DskipTests && ./mvnw -pl bootstrap spring-boot:test-run"""
            .formatted(AUDIENCES, ACCEPT_ANY_AUDIENCE);

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, TokenAudienceNotConfiguredException cause) {
        return new FailureAnalysis(DESCRIPTION, ACTION, cause);
    }
}
