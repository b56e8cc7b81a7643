package dev.bookstore.ordering.bootstrap;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import org.junit.jupiter.api.AfterAll;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The customer order summary ({@link CustomerOrderSummaryContract}) against a real MariaDB, its test triggers in
 * MariaDB's SQL: one trigger per table and operation, {@code SIGNAL} to fail, and the writing transaction's id from a
 * log table with transaction-precise system versioning (MariaDB has no {@code txid_current()}).
 */
@ActiveProfiles("mariadb")
class MariaDbCustomerOrderSummaryIT extends CustomerOrderSummaryContract {

    private static final TestDatabase DATABASE = TestEngine.MARIADB.newDatabase();

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
        return TestEngine.MARIADB;
    }

    /** {@code tx} is the row's ROW START: in a table versioned by transaction, the id of the one that inserted it. */
    @Override
    protected void installWriteLog() {
        jdbc.execute("""
                CREATE OR REPLACE TABLE test_write_log (
                    n      bigint NOT NULL AUTO_INCREMENT PRIMARY KEY,
                    what   text   NOT NULL,
                    tx     bigint unsigned GENERATED ALWAYS AS ROW START INVISIBLE,
                    tx_end bigint unsigned GENERATED ALWAYS AS ROW END INVISIBLE,
                    PERIOD FOR SYSTEM_TIME (tx, tx_end)
                ) ENGINE = InnoDB WITH SYSTEM VERSIONING""");
        logWrites("log_summary_event", "INSERT", "customer_order_summary_event");
        logWrites("log_publication_update", "UPDATE", publicationTable());
        logWrites("log_publication_delete", "DELETE", publicationTable());
    }

    private void logWrites(String trigger, String operation, String table) {
        jdbc.execute("CREATE TRIGGER %1$s AFTER %2$s ON %3$s FOR EACH ROW "
                .formatted(trigger, operation, table)
                + "INSERT INTO test_write_log (what) VALUES ('%s %s')".formatted(table, operation));
    }

    /** The sequence caches nothing, so its table tells how far it went. */
    @Override
    protected void installSummaryFailures(int times) {
        jdbc.execute("DROP SEQUENCE IF EXISTS summary_failures");
        jdbc.execute("CREATE SEQUENCE summary_failures NOCACHE");
        jdbc.execute("""
                CREATE TRIGGER summary_fails BEFORE INSERT ON customer_order_summary_event FOR EACH ROW
                BEGIN
                  IF NEXTVAL(summary_failures) <= %d THEN
                    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'test: the summary listener fails';
                  END IF;
                END""".formatted(times));
    }

    @Override
    protected long summaryFailuresAsked() {
        return jdbc.queryForObject("SELECT next_not_cached_value - 1 FROM summary_failures", Long.class);
    }

    @Override
    protected void dropTestTriggers() {
        for (String trigger : new String[] {"summary_fails", "log_summary_event", "log_publication_update",
                "log_publication_delete"}) {
            jdbc.execute("DROP TRIGGER IF EXISTS " + trigger);
        }
    }
}
