package dev.bookstore.ordering.adapters.persistence.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The V5 scripts read without a database, so SQL Server's is checked everywhere, also where no SQL Server can be
 * started; {@code PostgresOutboxMigrationIT} runs PostgreSQL's for real. MariaDB has no V5: its V7 creates the
 * outbox table as V5 leaves it, checked here too.
 */
class OutboxMigrationScriptTest {

    private static final String V5 = "V5__outbox_position_and_created_at.sql";
    private static final String MARIADB_V7 = "V7__ordering_schema.sql";

    @Test
    void bothVendorsNumberExistingRowsInOccurredAtThenIdOrderAndStampThemWithOccurredAt() {
        assertThat(script("postgresql")).contains("row_number() OVER (ORDER BY occurred_at, id)",
                "created_at = m.occurred_at");
        assertThat(script("sqlserver")).contains("ROW_NUMBER() OVER (ORDER BY occurred_at, id)",
                "created_at = occurred_at");
    }

    @Test
    void sqlServerTakesPositionFromASequenceAndCreatedAtFromItsClockAsDefaults() {
        String sql = script("sqlserver");

        assertThat(sql).contains("CREATE SEQUENCE outbox_message_position AS bigint",
                "DEFAULT (NEXT VALUE FOR outbox_message_position) FOR position",
                "DEFAULT SYSDATETIMEOFFSET() FOR created_at",
                "ALTER COLUMN position bigint NOT NULL",
                "UNIQUE CLUSTERED (position)",
                "N'ALTER SEQUENCE outbox_message_position RESTART WITH '",
                "CAST((SELECT COALESCE(MAX(position), 0) + 1 FROM outbox_message) AS nvarchar(20))",
                "EXEC sp_executesql @restart;");
        // The same type as the other time columns of V1, so comparisons never convert.
        assertThat(script("sqlserver", "V1__orders_outbox_inbox.sql"))
                .containsPattern("occurred_at\\s+datetimeoffset\\(6\\)");
        assertThat(sql).contains("created_at datetimeoffset(6) NULL",
                "ALTER COLUMN created_at datetimeoffset(6) NOT NULL");
    }

    @Test
    void sqlServerUsesTheNewColumnsOnlyInALaterBatchThanTheOneThatAddsThem() {
        // T-SQL compiles a whole batch first: a column added in it cannot be named by a later statement in it.
        List<String> batches = Arrays.asList(Pattern.compile("(?m)^GO\\s*$").split(script("sqlserver")));

        assertThat(batches).hasSizeGreaterThanOrEqualTo(3);
        assertThat(batches.get(0)).contains("ADD position bigint NULL, created_at").doesNotContain("SET position");
        assertThat(batches.subList(1, batches.size())).noneMatch(batch -> batch.contains("ADD position bigint"));
        assertThat(batches.get(1)).contains("SET position = row_no");
    }

    @Test
    void postgresTakesPositionFromASequenceAndCreatedAtFromNowAsDefaults() {
        assertThat(script("postgresql")).contains(
                "CREATE SEQUENCE outbox_message_position_seq AS bigint",
                "ALTER COLUMN position SET DEFAULT nextval('outbox_message_position_seq')",
                "ALTER COLUMN position SET NOT NULL",
                "ALTER COLUMN created_at SET DEFAULT now()",
                "ALTER COLUMN created_at SET NOT NULL",
                "UNIQUE (position)",
                "setval('outbox_message_position_seq', "
                        + "COALESCE((SELECT max(position) FROM outbox_message), 0) + 1, false)");
    }

    @Test
    void theRelaysIndexesAreOnPositionOverUnpublishedRowsOnBothVendors() {
        for (String vendor : List.of("postgresql", "sqlserver")) {
            String sql = script(vendor);
            assertThat(sql).as(vendor)
                    .containsPattern("CREATE INDEX outbox_message_unpublished ON outbox_message \\(position\\)[^;]*"
                            + "WHERE published_at IS NULL;")
                    .containsPattern("CREATE INDEX outbox_message_unpublished_by_aggregate\\s+ON outbox_message "
                            + "\\(aggregate_type, aggregate_id, position\\) WHERE published_at IS NULL;");
            assertThat(Pattern.compile("(?i)CREATE[^;]*INDEX[^;]*;").matcher(sql).results()
                    .map(match -> match.group())).as(vendor).noneMatch(index -> index.contains("occurred_at"));
        }
    }

    /** No rows to number in a new table: the database hands out both at insert, from its counter and its clock. */
    @Test
    void mariaDbTakesPositionFromAutoIncrementAndCreatedAtFromItsUtcClockAsDefaults() {
        String sql = script("mariadb", MARIADB_V7);

        assertThat(sql).contains("position        bigint        NOT NULL AUTO_INCREMENT",
                "CONSTRAINT outbox_message_position_unique UNIQUE (position)",
                "created_at      datetime(6)   NOT NULL DEFAULT (UTC_TIMESTAMP(6))",
                "next_attempt_at datetime(6)   NOT NULL DEFAULT (UTC_TIMESTAMP(6))",
                "occurred_at     datetime(6)   NOT NULL");
        assertThat(sql).doesNotContainPattern("(?i)CURRENT_TIMESTAMP").doesNotContainPattern("(?i)\\bnow\\(")
                .doesNotContainPattern("(?i)UTC_TIMESTAMP(?!\\(6\\))");
    }

    /**
     * MariaDB has no partial indexes: the relay's scan is over (status, position), ordered mode's over the aggregate
     * and published_at, then position; as on the other vendors, no index orders by occurred_at.
     */
    @Test
    void theMariaDbRelaysIndexesEndInPositionAndNoneIsOnOccurredAt() {
        String sql = script("mariadb", MARIADB_V7);

        assertThat(sql).contains("INDEX outbox_message_by_status (status, position)",
                "INDEX outbox_message_unpublished_by_aggregate (aggregate_type, aggregate_id, published_at, position)");
        assertThat(Pattern.compile("(?m)^\\s*INDEX [^\\n]*$").matcher(sql).results().map(match -> match.group()))
                .isNotEmpty().noneMatch(index -> index.contains("occurred_at"));
    }

    private static String script(String vendor) {
        return script(vendor, V5);
    }

    private static String script(String vendor, String name) {
        String path = "db/migration/" + vendor + "/" + name;
        try (InputStream in = OutboxMigrationScriptTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(path, e);
        }
    }
}
