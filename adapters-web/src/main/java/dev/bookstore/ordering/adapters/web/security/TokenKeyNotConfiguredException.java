package dev.bookstore.ordering.adapters.web.security;

/**
 * Thrown at start when nothing names the key that signs bearer tokens;
 * {@link TokenKeyNotConfiguredFailureAnalyzer} says what to set.
 */
final class TokenKeyNotConfiguredException extends IllegalStateException {

    TokenKeyNotConfiguredException() {
        super("No key to verify bearer tokens with is configured");
    }
}
