package dev.bookstore.ordering.adapters.persistence.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The customer order summary statements and the V7 migration of every database, checked without a database, so
 * SQL Server's are checked everywhere; PostgreSQL's and MariaDB's also run for real in
 * {@code *CustomerOrderSummariesIT}.
 */
class SummaryDialectTest {

    private static final SummaryDialect POSTGRES = SummaryDialect.of(Database.POSTGRESQL);
    private static final SummaryDialect SQL_SERVER = SummaryDialect.of(Database.SQL_SERVER);
    private static final SummaryDialect MARIADB = SummaryDialect.of(Database.MARIADB);
    private static final UUID EVENT = UUID.fromString("0192b7a4-5d1e-7c3a-8000-000000000001");
    private static final UUID CUSTOMER = UUID.fromString("0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60");
    private static final Instant AT = Instant.parse("2025-03-14T09:26:53.589Z");
    private static final String V7 = "V7__customer_order_summary.sql";

    @ParameterizedTest
    @EnumSource(Database.class)
    void everyStatementHasAsManyPlaceholdersAsItsParameters(Database database) {
        SummaryDialect sql = SummaryDialect.of(database);
        assertThat(placeholders(sql.recordEvent())).isEqualTo(sql.recordEventParameters(EVENT).length);
        assertThat(placeholders(sql.addPlaced())).isEqualTo(sql.addPlacedParameters(CUSTOMER, AT).length);
        assertThat(placeholders(sql.addCancelled())).isEqualTo(sql.addCancelledParameters(CUSTOMER).length);
        assertThat(placeholders(SummaryDialect.FIND)).isOne();
        sql.addPlacedOnce().ifPresent(once -> assertThat(placeholders(once))
                .isEqualTo(sql.addPlacedOnceParameters(EVENT, CUSTOMER, AT).length));
    }

    @Test
    void postgresCountsAnOrderPlacedOnceInOneStatementSqlServerInTwo() throws Exception {
        String once = POSTGRES.addPlacedOnce().orElseThrow();
        CCJSqlParserUtil.parse(once);
        // the counter's upsert reads only what the event id's insert-if-absent returned
        assertThat(once).startsWith("WITH recorded AS (INSERT INTO customer_order_summary_event (event_id) VALUES (?) "
                + "ON CONFLICT (event_id) DO NOTHING RETURNING event_id)");
        assertThat(once).contains("SELECT ?, 1, 0, ? FROM recorded",
                "ON CONFLICT (customer_id) DO UPDATE SET",
                "GREATEST(customer_order_summary.last_order_at, EXCLUDED.last_order_at)");
        assertThat(POSTGRES.addPlacedOnceParameters(EVENT, CUSTOMER, AT))
                .containsExactly(EVENT, CUSTOMER, OffsetDateTime.ofInstant(AT, ZoneOffset.UTC));
        assertThat(SQL_SERVER.addPlacedOnce()).as("recordEvent, then addPlaced").isEmpty();
    }

    @Test
    void eachDatabaseBindsIdsAsItsDriverExpectsAndTimesInUtc() {
        OffsetDateTime utc = OffsetDateTime.ofInstant(AT, ZoneOffset.UTC);
        assertThat(POSTGRES.recordEventParameters(EVENT)).containsExactly(EVENT);
        assertThat(POSTGRES.addPlacedParameters(CUSTOMER, AT)).containsExactly(CUSTOMER, utc);
        assertThat(SQL_SERVER.recordEventParameters(EVENT))
                .containsExactly(EVENT.toString(), EVENT.toString());
        assertThat(SQL_SERVER.addPlacedParameters(CUSTOMER, AT)).containsExactly(CUSTOMER.toString(), utc);
        assertThat(SQL_SERVER.addCancelledParameters(CUSTOMER)).containsExactly(CUSTOMER.toString());
        // datetime(6) has no zone: the UTC wall clock
        assertThat(MARIADB.recordEventParameters(EVENT)).containsExactly(EVENT.toString());
        assertThat(MARIADB.addPlacedParameters(CUSTOMER, AT))
                .containsExactly(CUSTOMER.toString(), LocalDateTime.ofInstant(AT, ZoneOffset.UTC));
        assertThat(MARIADB.addCancelledParameters(CUSTOMER)).containsExactly(CUSTOMER.toString());
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void everyEngineBindsIdsAndTimesAsTheEngineDoes(Database database) {
        SummaryDialect sql = SummaryDialect.of(database);

        assertThat(sql.recordEventParameters(EVENT)[0]).isEqualTo(database.id(EVENT));
        assertThat(sql.addPlacedParameters(CUSTOMER, AT)).containsExactly(database.id(CUSTOMER),
                database.timestamp(AT));
    }

    /**
     * MariaDB's {@code GREATEST} is NULL when an argument is (PostgreSQL's skips NULLs), and a customer's row may
     * have no order time yet (a cancellation came first): the row's time falls back to the new one before comparing.
     */
    @Test
    void mariaDbInsertsTheEventIdUnlessPresentAndUpsertsTheCountersOnTheCustomersKey() {
        assertThat(MARIADB.recordEvent())
                .isEqualTo("INSERT IGNORE INTO customer_order_summary_event (event_id) VALUES (?)");
        assertThat(MARIADB.addPlaced()).startsWith("INSERT INTO customer_order_summary "
                + "(customer_id, orders_placed, orders_cancelled, last_order_at) VALUES (?, 1, 0, ?) "
                + "ON DUPLICATE KEY UPDATE ").contains("orders_placed = orders_placed + 1",
                "last_order_at = GREATEST(COALESCE(last_order_at, VALUE(last_order_at)), VALUE(last_order_at))");
        assertThat(MARIADB.addCancelled()).contains("VALUES (?, 0, 1, NULL)",
                "ON DUPLICATE KEY UPDATE orders_cancelled = orders_cancelled + 1");
        assertThat(MARIADB.addPlacedOnce()).as("recordEvent, then addPlaced").isEmpty();
    }

    @Test
    void postgresInsertsTheEventIdOnlyIfAbsentAndUpsertsTheCounters() {
        assertThat(POSTGRES.recordEvent()).endsWith("ON CONFLICT (event_id) DO NOTHING");
        assertThat(POSTGRES.addPlaced()).contains("ON CONFLICT (customer_id) DO UPDATE SET",
                "orders_placed = customer_order_summary.orders_placed + 1",
                "GREATEST(customer_order_summary.last_order_at, EXCLUDED.last_order_at)");
        assertThat(POSTGRES.addCancelled()).contains("VALUES (?, 0, 1, NULL)",
                "orders_cancelled = customer_order_summary.orders_cancelled + 1");
    }

    @Test
    void sqlServerHoldsTheKeyLockOfTheCheckAndOfTheUpsertsToTheEndOfTheTransaction() {
        SummaryDialect sql = SQL_SERVER;
        assertThat(sql.recordEvent()).contains("WHERE NOT EXISTS (",
                "FROM customer_order_summary_event WITH (UPDLOCK, HOLDLOCK) WHERE event_id = ?");
        for (String merge : List.of(sql.addPlaced(), sql.addCancelled())) {
            assertThat(merge).startsWith("MERGE INTO customer_order_summary WITH (HOLDLOCK) AS summary ")
                    .contains("WHEN MATCHED THEN UPDATE SET", "WHEN NOT MATCHED THEN INSERT").endsWith(";");
        }
        assertThat(sql.addPlaced()).contains("VALUES (placed.customer_id, 1, 0, placed.placed_at);",
                "summary.last_order_at < placed.placed_at THEN placed.placed_at");
        assertThat(sql.addCancelled()).contains("orders_cancelled = summary.orders_cancelled + 1",
                "VALUES (cancelled.customer_id, 0, 1, NULL);");
    }

    @Test
    void noSqlServerStatementUsesPostgresSyntax() {
        List<String> postgresOnly = List.of("(?i)ON\\s+CONFLICT", "(?i)EXCLUDED", "(?i)GREATEST", "(?i)RETURNING",
                "::", "(?i)\\bnow\\(\\)", "(?i)\\bLIMIT\\b");
        statements(SQL_SERVER).forEach((name, statement) -> postgresOnly.forEach(pattern ->
                assertThat(statement).as("SQL Server %s", name).doesNotContainPattern(pattern)));
    }

    @Test
    void noPostgresStatementUsesSqlServerSyntax() {
        List<String> sqlServerOnly = List.of("(?i)\\bMERGE\\b", "(?i)HOLDLOCK", "(?i)UPDLOCK", "(?i)\\bTOP\\b",
                "(?i)SYSDATETIMEOFFSET", "\\[");
        statements(POSTGRES).forEach((name, statement) -> sqlServerOnly.forEach(pattern ->
                assertThat(statement).as("PostgreSQL %s", name).doesNotContainPattern(pattern)));
    }

    @Test
    void noMariaDbStatementUsesPostgresOrSqlServerSyntaxOrTheSessionsClock() {
        List<String> otherEngines = List.of("(?i)ON\\s+CONFLICT", "(?i)EXCLUDED", "(?i)RETURNING", "::",
                "(?i)\\bnow\\s*\\(", "(?i)CURRENT_TIMESTAMP", "(?i)\\bLIMIT\\b", "(?i)\\bMERGE\\b",
                "(?i)HOLDLOCK", "(?i)UPDLOCK", "(?i)\\bTOP\\b", "(?i)SYSDATETIMEOFFSET", "\\[");
        statements(MARIADB).forEach((name, statement) -> otherEngines.forEach(pattern ->
                assertThat(statement).as("MariaDB %s", name).doesNotContainPattern(pattern)));
    }

    @Test
    void noPostgresOrSqlServerStatementUsesMariaDbSyntax() {
        List<String> mariaDbOnly = List.of("(?i)INSERT\\s+IGNORE", "(?i)ON\\s+DUPLICATE\\s+KEY",
                "(?i)\\bVALUES?\\s*\\(\\s*last_order_at", "(?i)UTC_TIMESTAMP", "`");
        for (SummaryDialect sql : List.of(POSTGRES, SQL_SERVER)) {
            statements(sql).forEach((name, statement) -> mariaDbOnly.forEach(pattern ->
                    assertThat(statement).as("%s %s", sql.getClass().getSimpleName(), name)
                            .doesNotContainPattern(pattern)));
        }
    }

    /** JSqlParser does not know T-SQL's table hints: they are checked literally above and set aside here. */
    @ParameterizedTest
    @EnumSource(Database.class)
    void everyStatementParses(Database database) {
        SummaryDialect sql = SummaryDialect.of(database);
        statements(sql).forEach((name, statement) -> {
            String parsed = statement.replace(" WITH (UPDLOCK, HOLDLOCK)", "").replace(" WITH (HOLDLOCK)", "");
            assertThatNoException().as("%s %s", sql.getClass().getSimpleName(), name)
                    .isThrownBy(() -> CCJSqlParserUtil.parse(parsed));
        });
    }

    @Test
    void theParserWouldRejectABrokenStatement() {
        String broken = SQL_SERVER.addCancelled().replace("WHEN NOT MATCHED THEN INSERT", "WHEN NOT");

        assertThat(catchThrowable(() -> CCJSqlParserUtil.parse(broken.replace(" WITH (HOLDLOCK)", ""))))
                .isNotNull();
    }

    // --- the V7 migration ----------------------------------------------------------------------------------------

    @Test
    void v7OnlyCreatesTheTwoNewTablesOnBothDatabases() {
        for (String vendor : List.of("postgresql", "sqlserver")) {
            String statements = script(vendor).replaceAll("(?m)--.*$", "");
            assertThat(statements).as(vendor).contains("CREATE TABLE customer_order_summary (",
                    "CREATE TABLE customer_order_summary_event (")
                    .doesNotContainPattern("(?i)\\bALTER\\b").doesNotContainPattern("(?i)\\bDROP\\b")
                    .doesNotContainPattern("(?i)\\bUPDATE\\b").doesNotContainPattern("(?i)\\bDELETE\\b");
            assertThat(statements.split("(?i)CREATE TABLE", -1)).as(vendor).hasSize(3);
        }
    }

    @Test
    void sqlServerV7UsesSqlServerTypesAndKeysTheEventId() {
        String sql = script("sqlserver");

        assertThat(sql).contains("customer_id      uniqueidentifier  NOT NULL PRIMARY KEY",
                "event_id     uniqueidentifier  NOT NULL PRIMARY KEY", "last_order_at    datetimeoffset(6) NULL",
                "DEFAULT SYSDATETIMEOFFSET()");
        assertThat(sql).doesNotContainPattern("(?i)timestamptz").doesNotContainPattern("(?i)\\buuid\\b")
                .doesNotContainPattern("(?i)now\\(\\)");
    }

    @Test
    void everySqlServerV7StatementParses() {
        String statements = script("sqlserver").replaceAll("(?m)--.*$", "");
        for (String statement : statements.split(";")) {
            if (!statement.isBlank()) {
                assertThatNoException().as(statement).isThrownBy(() -> CCJSqlParserUtil.parse(statement.strip()));
            }
        }
    }

    /**
     * MariaDB starts at V7 with the whole schema ({@code V7__ordering_schema.sql}); its summary tables are the ones
     * the other engines' V7 creates, in MariaDB's types, with times in UTC.
     */
    @Test
    void mariaDbV7CreatesTheSummaryTablesWithItsOwnTypesAndTheUtcClock() {
        String sql = script("mariadb", "V7__ordering_schema.sql");

        assertThat(sql).contains("CREATE TABLE customer_order_summary (", "CREATE TABLE customer_order_summary_event (",
                "customer_id      uuid        NOT NULL PRIMARY KEY", "last_order_at    datetime(6) NULL",
                "event_id     uuid        NOT NULL PRIMARY KEY",
                "processed_at datetime(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6))");
        assertThat(sql).doesNotContainPattern("(?i)timestamptz").doesNotContainPattern("(?i)datetimeoffset")
                .doesNotContainPattern("(?i)uniqueidentifier").doesNotContainPattern("(?i)\\bnow\\(");
    }

    private static Map<String, String> statements(SummaryDialect sql) {
        Map<String, String> statements = new LinkedHashMap<>();
        statements.put("recordEvent", sql.recordEvent());
        statements.put("addPlaced", sql.addPlaced());
        statements.put("addCancelled", sql.addCancelled());
        statements.put("find", SummaryDialect.FIND);
        return statements;
    }

    private static int placeholders(String sql) {
        return sql.replaceAll("'[^']*'", "").replaceAll("[^?]", "").length();
    }

    private static String script(String vendor) {
        return script(vendor, V7);
    }

    private static String script(String vendor, String name) {
        String path = "db/migration/" + vendor + "/" + name;
        try (InputStream in = SummaryDialectTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(path, e);
        }
    }
}
