package dev.bookstore.ordering.adapters.web.security;

/**
 * Thrown at start when nothing names the audience that bearer tokens must carry and any audience is not explicitly
 * accepted either; {@link TokenAudienceNotConfiguredFailureAnalyzer} says what to set.
 */
final class TokenAudienceNotConfiguredException extends IllegalStateException {

    TokenAudienceNotConfiguredException() {
        super("No audience for bearer tokens is configured (" + TokenAudienceNotConfiguredFailureAnalyzer.AUDIENCES
                + ")");
    }
}
