package dev.bookstore.ordering.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Which churning tables autovacuum leaves alone, and the start-up warning that names them, on a real PostgreSQL with
 * the real schema. The server's setting differs between machines (off on the CI machine, on in a Testcontainers
 * PostgreSQL), so each test states what it expects for the server it finds.
 */
@ExtendWith(OutputCaptureExtension.class)
class PostgresMaintenanceIT {

    private static final List<String> CHURNING =
            List.of("event_publication", "idempotency_key", "inbox_message", "outbox_message");

    private static TestDatabase database;
    private static DriverManagerDataSource dataSource;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void migratedDatabase() {
        database = TestPostgres.newMigratedDatabase();
        dataSource = new DriverManagerDataSource(database.url(), database.username(), database.password());
        jdbc = new JdbcTemplate(dataSource);
    }

    @AfterAll
    static void dropDatabase() {
        TestPostgres.drop(database);
    }

    @Test
    void withTheServersAutovacuumOffEveryChurningTableIsUnmaintainedAndWithItOnNone() {
        boolean serverVacuums = "on".equals(jdbc.queryForObject("SHOW autovacuum", String.class))
                && "on".equals(jdbc.queryForObject("SHOW track_counts", String.class));

        assertThat(PostgresMaintenance.unmaintainedTables(dataSource))
                .isEqualTo(serverVacuums ? List.of() : CHURNING);
    }

    @Test
    void aChurningTableWithAutovacuumDisabledIsUnmaintainedWhateverTheServerSays() {
        jdbc.execute("ALTER TABLE outbox_message SET (autovacuum_enabled = false)");
        try {
            assertThat(PostgresMaintenance.unmaintainedTables(dataSource)).contains("outbox_message")
                    .doesNotContain("orders", "order_line");
        } finally {
            jdbc.execute("ALTER TABLE outbox_message RESET (autovacuum_enabled)");
        }
    }

    @Test
    void anOutboxTableAutovacuumLeavesAloneIsNamedInAWarning(CapturedOutput output) {
        jdbc.execute("ALTER TABLE outbox_message SET (autovacuum_enabled = false)");
        try {
            new PostgresMaintenance(dataSource).warnWhenAutovacuumLeavesTablesAlone();
        } finally {
            jdbc.execute("ALTER TABLE outbox_message RESET (autovacuum_enabled)");
        }

        assertThat(output.getOut()).contains("WARN").contains("PostgreSQL's autovacuum does not look after")
                .contains("outbox_message");
    }

    @Test
    void whetherTheUntouchedSchemaIsWarnedAboutFollowsTheServersSetting(CapturedOutput output) {
        boolean serverVacuums = "on".equals(jdbc.queryForObject("SHOW autovacuum", String.class))
                && "on".equals(jdbc.queryForObject("SHOW track_counts", String.class));

        new PostgresMaintenance(dataSource).warnWhenAutovacuumLeavesTablesAlone();

        if (serverVacuums) {
            assertThat(output.getOut()).doesNotContain("PostgreSQL's autovacuum does not look after");
        } else {
            assertThat(output.getOut()).contains("PostgreSQL's autovacuum does not look after event_publication, "
                    + "idempotency_key, inbox_message, outbox_message");
        }
    }
}
