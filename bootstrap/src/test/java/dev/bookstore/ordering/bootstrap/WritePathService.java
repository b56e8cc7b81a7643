package dev.bookstore.ordering.bootstrap;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The properties of a service under test that serves the API on a database of its own, with no relay (its rows
 * stay to be looked at) and no broker (port 1), trusting the test tokens; the outbox retention job waits an hour,
 * so nothing uses the database when the test drops it. Tests add what they need beside it.
 */
public final class WritePathService {

    private WritePathService() {
    }

    public static void register(DynamicPropertyRegistry registry, TestDatabase database) {
        registry.add("spring.datasource.url", database::url);
        registry.add("spring.datasource.username", database::username);
        registry.add("spring.datasource.password", database::password);
        registry.add("ordering.outbox.relay", () -> "none");
        registry.add("ordering.outbox.retention-interval", () -> "1h");
        registry.add("spring.rabbitmq.port", () -> "1");
        registry.add(TestTokens.PUBLIC_KEY_PROPERTY, TestTokens::publicKeyLocation);
        registry.add(TestTokens.AUDIENCES_PROPERTY, () -> TestTokens.AUDIENCE);
    }
}
