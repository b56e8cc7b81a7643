package dev.bookstore.ordering.bootstrap;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import org.junit.jupiter.api.AfterAll;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The customer order summary ({@link CustomerOrderSummaryContract}) against a real PostgreSQL, its test triggers in
 * PL/pgSQL.
 */
@ActiveProfiles("postgres")
class CustomerOrderSummaryIT extends CustomerOrderSummaryContract {

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

    /** One trigger function for all: the table's name and operation, and {@code txid_current()}. */
    @Override
    protected void installWriteLog() {
        jdbc.execute("CREATE TABLE IF NOT EXISTS test_write_log (n bigserial, what text, tx bigint)");
        jdbc.execute("TRUNCATE test_write_log");
        jdbc.execute("""
                CREATE OR REPLACE FUNCTION log_write() RETURNS trigger AS $$
                BEGIN
                  INSERT INTO test_write_log (what, tx) VALUES (TG_TABLE_NAME || ' ' || TG_OP, txid_current());
                  RETURN NULL;
                END $$ LANGUAGE plpgsql""");
        jdbc.execute("CREATE TRIGGER log_summary_event AFTER INSERT ON customer_order_summary_event "
                + "FOR EACH ROW EXECUTE FUNCTION log_write()");
        jdbc.execute("CREATE TRIGGER log_publication AFTER UPDATE OR DELETE ON event_publication "
                + "FOR EACH ROW EXECUTE FUNCTION log_write()");
    }

    @Override
    protected void installSummaryFailures(int times) {
        jdbc.execute("DROP SEQUENCE IF EXISTS summary_failures");
        jdbc.execute("CREATE SEQUENCE summary_failures MAXVALUE " + (times + 1_000_000));
        jdbc.execute("""
                CREATE OR REPLACE FUNCTION summary_fails() RETURNS trigger AS $$
                BEGIN
                  IF nextval('summary_failures') <= %d THEN
                    RAISE EXCEPTION 'test: the summary listener fails';
                  END IF;
                  RETURN NEW;
                END $$ LANGUAGE plpgsql""".formatted(times));
        jdbc.execute("CREATE TRIGGER summary_fails BEFORE INSERT ON customer_order_summary_event "
                + "FOR EACH ROW EXECUTE FUNCTION summary_fails()");
    }

    @Override
    protected long summaryFailuresAsked() {
        return jdbc.queryForObject("SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM summary_failures",
                Long.class);
    }

    @Override
    protected void dropTestTriggers() {
        jdbc.execute("DROP TRIGGER IF EXISTS summary_fails ON customer_order_summary_event");
        jdbc.execute("DROP TRIGGER IF EXISTS log_summary_event ON customer_order_summary_event");
        jdbc.execute("DROP TRIGGER IF EXISTS log_publication ON event_publication");
    }
}
