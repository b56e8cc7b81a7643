package dev.bookstore.ordering.bootstrap.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The start-up warning about autovacuum, on a real PostgreSQL with the real schema: the outbox's table is taken out
 * of autovacuum's care (so the test does not depend on the server's own setting), and the warning names it; with
 * every churning table in autovacuum's care, or where the server's autovacuum is off, the outcome follows the
 * server's setting.
 */
@ExtendWith(OutputCaptureExtension.class)
class PostgresMaintenanceWarningIT {

    private TestPostgres.Database database;
    private DriverManagerDataSource dataSource;
    private JdbcTemplate jdbc;

    @BeforeEach
    void migratedDatabase() {
        database = TestPostgres.newMigratedDatabase();
        dataSource = new DriverManagerDataSource(database.url(), database.username(), database.password());
        jdbc = new JdbcTemplate(dataSource);
    }

    @AfterEach
    void dropDatabase() {
        TestPostgres.drop(database);
    }

    @Test
    void anOutboxTableAutovacuumLeavesAloneIsNamedInAWarning(CapturedOutput output) {
        jdbc.execute("ALTER TABLE outbox_message SET (autovacuum_enabled = false)");

        new PostgresMaintenanceWarning(dataSource).warnWhenAutovacuumLeavesTablesAlone();

        assertThat(output.getOut()).contains("WARN").contains("PostgreSQL's autovacuum does not look after")
                .contains("outbox_message");
    }

    @Test
    void whetherTheUntouchedSchemaIsWarnedAboutFollowsTheServersSetting(CapturedOutput output) {
        boolean serverVacuums = "on".equals(jdbc.queryForObject("SHOW autovacuum", String.class))
                && "on".equals(jdbc.queryForObject("SHOW track_counts", String.class));

        new PostgresMaintenanceWarning(dataSource).warnWhenAutovacuumLeavesTablesAlone();

        if (serverVacuums) {
            assertThat(output.getOut()).doesNotContain("PostgreSQL's autovacuum does not look after");
        } else {
            assertThat(output.getOut()).contains("PostgreSQL's autovacuum does not look after event_publication, "
                    + "idempotency_key, inbox_message, outbox_message");
        }
    }
}
