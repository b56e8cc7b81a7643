package dev.bookstore.ordering.bootstrap;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import org.junit.jupiter.api.AfterAll;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The resubmission of incomplete publications ({@link IncompletePublicationsResubmissionContract}) on a real
 * PostgreSQL.
 */
@ActiveProfiles("postgres")
class IncompletePublicationsResubmissionIT extends IncompletePublicationsResubmissionContract {

    private static final TestDatabase DATABASE = TestEngine.POSTGRESQL.newDatabase();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        register(registry, DATABASE);
    }

    @AfterAll
    static void dropDatabase() {
        DATABASE.drop();
    }

    @Override
    protected TestEngine engine() {
        return TestEngine.POSTGRESQL;
    }
}
