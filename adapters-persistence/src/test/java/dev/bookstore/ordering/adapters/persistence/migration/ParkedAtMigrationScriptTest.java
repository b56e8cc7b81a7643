package dev.bookstore.ordering.adapters.persistence.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The V6 scripts read without a database, so SQL Server's is checked everywhere; the PostgreSQL one runs for real
 * in every IT. Expand only: the previous release, still running beside V6 during an upgrade, inserts and parks rows
 * without knowing {@code parked_at}. MariaDB has no V6: its V7 creates the outbox table as V6 leaves it.
 */
class ParkedAtMigrationScriptTest {

    private static final String V6 = "V6__outbox_parked_at.sql";

    @Test
    void bothVendorsAddParkedAtAsANullableColumnWithoutADefault() {
        assertThat(script("postgresql")).contains("ALTER TABLE outbox_message ADD COLUMN parked_at timestamptz;");
        assertThat(script("sqlserver")).contains("ALTER TABLE outbox_message ADD parked_at datetimeoffset(6) NULL;");
        for (String vendor : List.of("postgresql", "sqlserver")) {
            String statements = script(vendor).replaceAll("(?m)--.*$", "");
            assertThat(statements).as(vendor).doesNotContainPattern("(?i)NOT\\s+NULL")
                    .doesNotContainPattern("(?i)\\bDEFAULT\\b").doesNotContainPattern("(?i)\\bDROP\\b")
                    .doesNotContainPattern("(?i)ALTER\\s+COLUMN").doesNotContainPattern("(?i)\\bUPDATE\\b");
        }
    }

    @Test
    void bothVendorsIndexParkedRowsByPosition() {
        for (String vendor : List.of("postgresql", "sqlserver")) {
            assertThat(script(vendor)).as(vendor).contains(
                    "CREATE INDEX outbox_message_parked ON outbox_message (position) WHERE status = 'PARKED';");
        }
    }

    @Test
    void sqlServerCreatesTheIndexInALaterBatchThanTheColumn() {
        String sql = script("sqlserver");

        assertThat(sql.indexOf("\nGO\n")).isBetween(sql.indexOf("ADD parked_at"), sql.indexOf("CREATE INDEX"));
        assertThat(sql).doesNotContain("TIMESTAMPTZ").doesNotContain("timestamptz");
    }

    @Test
    void mariaDbHasParkedAtAsANullableColumnWithoutADefaultAndFindsParkedRowsByStatusThenPosition() {
        String sql = script("mariadb", "V7__ordering_schema.sql");

        assertThat(sql).contains("parked_at       datetime(6)   NULL,",
                "INDEX outbox_message_by_status (status, position)");
        assertThat(sql.lines().filter(line -> line.contains("parked_at"))).hasSize(1)
                .noneMatch(line -> line.matches("(?i).*\\bDEFAULT\\b.*"));
    }

    private static String script(String vendor) {
        return script(vendor, V6);
    }

    private static String script(String vendor, String name) {
        String path = "db/migration/" + vendor + "/" + name;
        try (InputStream in = ParkedAtMigrationScriptTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(path, e);
        }
    }
}
