package dev.bookstore.ordering.adapters.persistence.outbox;

import static dev.bookstore.ordering.adapters.persistence.outbox.OutboxDialectTest.placeholderAt;
import static dev.bookstore.ordering.adapters.persistence.outbox.OutboxDialectTest.placeholders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import dev.bookstore.ordering.adapters.persistence.outbox.OutboxAdministrationDialect.Statement;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The operator's statements of every dialect, checked without a database, so SQL Server's are checked here where no
 * SQL Server can be started; {@code *OutboxAdministrationIT} runs PostgreSQL's and MariaDB's for real.
 */
class OutboxAdministrationDialectTest {

    private static final PostgresOutboxAdministrationDialect POSTGRES = new PostgresOutboxAdministrationDialect();
    private static final SqlServerOutboxAdministrationDialect SQL_SERVER = new SqlServerOutboxAdministrationDialect();
    private static final MariaDbOutboxAdministrationDialect MARIADB = new MariaDbOutboxAdministrationDialect();
    private static final UUID ID = UUID.fromString("0196d3a0-0000-7000-8000-000000000001");
    private static final Instant FROM = Instant.parse("2025-03-14T09:00:00Z");
    private static final Instant TO = Instant.parse("2025-03-14T10:00:00Z");

    static Stream<OutboxAdministrationDialect> dialects() {
        return Stream.of(POSTGRES, SQL_SERVER, MARIADB);
    }

    /** Every shape a replay can take: by aggregate (with or without its type), by time, by both. */
    static List<ReplaySelection> selections() {
        return List.of(new ReplaySelection(null, "order-1", null, null),
                new ReplaySelection("order", "order-1", null, null),
                new ReplaySelection(null, null, FROM, TO),
                new ReplaySelection("order", "order-1", FROM, TO));
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void everyStatementHasAsManyPlaceholdersAsItBinds(OutboxAdministrationDialect dialect) {
        statements(dialect).forEach((name, statement) -> assertThat(placeholders(statement.sql()))
                .as(name).isEqualTo(statement.parameters().length));
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void theSelectionBindsEachGivenFieldToItsOwnCondition(OutboxAdministrationDialect dialect) {
        Statement replay = dialect.resendPublished(new ReplaySelection("order", "order-1", FROM, TO), 10_000);
        List<Object> parameters = List.of(replay.parameters());

        assertThat(parameters.get(placeholderAt(replay.sql(), "aggregate_id = ") - 1)).isEqualTo("order-1");
        assertThat(parameters.get(placeholderAt(replay.sql(), "aggregate_type = ") - 1)).isEqualTo("order");
        assertThat(parameters.get(placeholderAt(replay.sql(), "occurred_at >= ") - 1))
                .isEqualTo(boundTime(dialect, FROM));
        assertThat(parameters.get(placeholderAt(replay.sql(), "occurred_at < ") - 1))
                .isEqualTo(boundTime(dialect, TO));
        assertThat(parameters).contains(10_000);
        assertThat(replay.sql()).contains("status = 'PUBLISHED'", "ORDER BY position");
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void onlyTheGivenFieldsBecomeConditions(OutboxAdministrationDialect dialect) {
        String byAggregate = dialect.resendPublished(new ReplaySelection(null, "order-1", null, null), 5).sql();
        String byTime = dialect.resendPublished(new ReplaySelection(null, null, FROM, TO), 5).sql();

        assertThat(byAggregate).contains("aggregate_id = ?").doesNotContain("occurred_at", "aggregate_type = ?");
        assertThat(byTime).contains("occurred_at >= ?", "occurred_at < ?").doesNotContain("aggregate_id");
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void theCountLooksAtOneRowMoreThanTheLimitSoATooWideReplayIsSeen(OutboxAdministrationDialect dialect) {
        assertThat(List.of(dialect.countPublished(selections().get(0), 10_000).parameters())).contains(10_001);
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void changesNameTheStateTheyExpectAndResetWhatTheRelayReads(OutboxAdministrationDialect dialect) {
        assertThat(dialect.deleteParked(ID).sql()).contains("AND status = 'PARKED'").startsWith("DELETE");
        for (String resend : List.of(dialect.resend(ID).sql(), dialect.resendPublished(selections().get(0), 1).sql())) {
            assertThat(resend).contains("status = 'PENDING'", "published_at = NULL", "attempts = 0",
                    "claimed_by = NULL", "claimed_until = NULL", "next_attempt_at = ", "created_at = ",
                    "status = 'PUBLISHED'");
        }
        assertThat(dialect.parked(7, 50).sql()).contains("status = 'PARKED'", "position > ?", "ORDER BY position");
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void readsReturnTheColumnsTheStoreReadsInItsOrder(OutboxAdministrationDialect dialect) {
        for (String read : List.of(dialect.find(ID).sql(), dialect.parked(0, 10).sql())) {
            String list = read.substring(read.indexOf("SELECT") + 6, read.indexOf("FROM outbox_message"))
                    .replace("TOP (?)", "");
            assertThat(Stream.of(list.split(",")).map(String::strip).map(c -> c.replaceAll("::\\w+$", ""))
                    .toList()).isEqualTo(OutboxAdministrationDialect.COLUMNS);
        }
    }

    @Test
    void sqlServerPutsTheLimitFirstAndBindsIdsAsText() {
        assertThat(SQL_SERVER.parked(7, 50).parameters()).containsExactly(50, 7L);
        assertThat(placeholderAt(SQL_SERVER.parked(7, 50).sql(), "TOP \\(")).isEqualTo(1);
        assertThat(SQL_SERVER.find(ID).parameters()).containsExactly(ID.toString());
        assertThat(SQL_SERVER.resend(ID).parameters()).containsExactly(ID.toString());
        Statement replay = SQL_SERVER.resendPublished(selections().get(0), 9);
        assertThat(placeholderAt(replay.sql(), "TOP \\(")).isEqualTo(1);
        assertThat(replay.parameters()[0]).isEqualTo(9);
        assertThat(replay.sql()).contains("UPDATE chosen SET");
    }

    @Test
    void postgresPutsTheLimitLastAndBindsIdsAsUuids() {
        assertThat(POSTGRES.parked(7, 50).parameters()).containsExactly(7L, 50);
        assertThat(POSTGRES.find(ID).parameters()).containsExactly(ID);
        Statement replay = POSTGRES.resendPublished(selections().get(0), 9);
        assertThat(replay.parameters()[replay.parameters().length - 1]).isEqualTo(9);
    }

    @Test
    void mariaDbPutsTheLimitLastBindsIdsAsTextAndUpdatesTheChosenRowsInOneSingleTableUpdate() {
        assertThat(MARIADB.parked(7, 50).parameters()).containsExactly(7L, 50);
        assertThat(MARIADB.parked(7, 50).sql()).endsWith("ORDER BY position LIMIT ?");
        assertThat(MARIADB.find(ID).parameters()).containsExactly(ID.toString());
        assertThat(MARIADB.resend(ID).parameters()).containsExactly(ID.toString());
        assertThat(MARIADB.deleteParked(ID).parameters()).containsExactly(ID.toString());
        Statement replay = MARIADB.resendPublished(selections().get(0), 9);
        assertThat(replay.parameters()[replay.parameters().length - 1]).isEqualTo(9);
        // MariaDB takes no LIMIT in an IN subquery: the UPDATE itself orders and limits, and names the state in WHERE
        assertThat(replay.sql()).startsWith("UPDATE outbox_message SET ").doesNotContain("IN (SELECT")
                .endsWith("WHERE status = 'PUBLISHED' AND aggregate_id = ? ORDER BY position LIMIT ?");
        Statement count = MARIADB.countPublished(selections().get(0), 9);
        assertThat(count.sql()).isEqualTo("SELECT count(*) FROM (SELECT 1 FROM outbox_message "
                + "WHERE status = 'PUBLISHED' AND aggregate_id = ? LIMIT ?) selected");
        assertThat(count.parameters()).containsExactly("order-1", 10);
    }

    @Test
    void mariaDbResetsTimesToItsUtcClockToTheMicrosecond() {
        for (String resend : List.of(MARIADB.resend(ID).sql(), MARIADB.resendPublished(selections().get(0), 1).sql())) {
            assertThat(resend).contains("next_attempt_at = UTC_TIMESTAMP(6)", "created_at = UTC_TIMESTAMP(6)")
                    .doesNotContainPattern("(?i)\\bnow\\s*\\(").doesNotContainPattern("(?i)CURRENT_TIMESTAMP");
        }
    }

    @Test
    void noSqlServerStatementUsesPostgresSyntax() {
        List<String> postgresOnly = List.of("(?i)\\bLIMIT\\b", "(?i)RETURNING", "(?i)\\bANY\\s*\\(", "::",
                "(?i)\\bnow\\(\\)", "(?i)\\binterval\\b", "(?i)jsonb", "(?i)FOR\\s+UPDATE");
        statements(SQL_SERVER).forEach((name, statement) -> postgresOnly.forEach(pattern ->
                assertThat(statement.sql()).as("SQL Server %s", name).doesNotContainPattern(pattern)));
    }

    @Test
    void noPostgresStatementUsesSqlServerSyntax() {
        List<String> sqlServerOnly = List.of("(?i)\\bTOP\\s*\\(", "(?i)\\bOUTPUT\\b", "(?i)SYSDATETIMEOFFSET",
                "(?i)DATEADD", "(?i)READPAST", "(?i)uniqueidentifier", "\\[");
        statements(POSTGRES).forEach((name, statement) -> sqlServerOnly.forEach(pattern ->
                assertThat(statement.sql()).as("PostgreSQL %s", name).doesNotContainPattern(pattern)));
    }

    @Test
    void noMariaDbStatementUsesPostgresOrSqlServerSyntax() {
        List<String> otherEngines = List.of("(?i)RETURNING", "(?i)\\bANY\\s*\\(", "::", "(?i)\\bnow\\s*\\(",
                "(?i)\\binterval\\b", "(?i)jsonb", "(?i)\\bTOP\\s*\\(", "(?i)\\bOUTPUT\\b",
                "(?i)SYSDATETIMEOFFSET", "(?i)DATEADD", "(?i)READPAST", "(?i)uniqueidentifier", "\\[",
                "(?i)\\bWITH\\b", "(?i)FETCH\\s+NEXT");
        statements(MARIADB).forEach((name, statement) -> otherEngines.forEach(pattern ->
                assertThat(statement.sql()).as("MariaDB %s", name).doesNotContainPattern(pattern)));
    }

    @Test
    void noPostgresOrSqlServerStatementUsesMariaDbSyntax() {
        for (OutboxAdministrationDialect dialect : List.of(POSTGRES, SQL_SERVER)) {
            statements(dialect).forEach((name, statement) -> assertThat(statement.sql())
                    .as("%s %s", dialect.getClass().getSimpleName(), name)
                    .doesNotContainPattern("(?i)UTC_TIMESTAMP").doesNotContain("`"));
        }
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void everyStatementParses(OutboxAdministrationDialect dialect) {
        statements(dialect).forEach((name, statement) -> assertThatNoException().as(name)
                .isThrownBy(() -> CCJSqlParserUtil.parse(statement.sql())));
    }

    /** A point in time as the dialect's engine binds it: UTC, with an offset where its columns keep one. */
    private static Object boundTime(OutboxAdministrationDialect dialect, Instant instant) {
        return dialect instanceof MariaDbOutboxAdministrationDialect ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC)
                : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static Map<String, Statement> statements(OutboxAdministrationDialect dialect) {
        Map<String, Statement> statements = new LinkedHashMap<>();
        statements.put("find", dialect.find(ID));
        statements.put("parked", dialect.parked(0, 50));
        statements.put("deleteParked", dialect.deleteParked(ID));
        statements.put("resend", dialect.resend(ID));
        List<ReplaySelection> selections = selections();
        for (int i = 0; i < selections.size(); i++) {
            statements.put("countPublished " + i, dialect.countPublished(selections.get(i), 100));
            statements.put("resendPublished " + i, dialect.resendPublished(selections.get(i), 100));
        }
        return statements;
    }
}
