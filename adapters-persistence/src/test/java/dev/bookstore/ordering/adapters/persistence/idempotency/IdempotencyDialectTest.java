package dev.bookstore.ordering.adapters.persistence.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The idempotency key statements of every dialect, checked without a database, so SQL Server's are checked
 * everywhere, also where no SQL Server can be started. The contract tests ({@code *IdempotencyKeysIT}) run them
 * for real.
 */
class IdempotencyDialectTest {

    private static final PostgresIdempotencyDialect POSTGRES = new PostgresIdempotencyDialect();
    private static final SqlServerIdempotencyDialect SQL_SERVER = new SqlServerIdempotencyDialect();
    private static final MariaDbIdempotencyDialect MARIADB = new MariaDbIdempotencyDialect();
    private static final UUID CUSTOMER = UUID.fromString("0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60");
    private static final UUID ORDER = UUID.fromString("0192b7a4-5d1e-7c3a-8000-000000000001");
    private static final String KEY = "8e03978e-40d5-43e8-bc93-6894a57f9324";
    private static final String FINGERPRINT = "f".repeat(64);
    private static final Duration RETENTION = Duration.ofHours(24);
    private static final String NOWAIT = "WITH (NOWAIT)";
    private static final String PURGE_HINTS = "WITH (ROWLOCK, READPAST)";
    /** MariaDB's lock wait timeout of 0 for the insert alone. */
    private static final String NO_LOCK_WAIT = "SET STATEMENT innodb_lock_wait_timeout = 0 FOR\n";

    static Stream<IdempotencyDialect> dialects() {
        return Stream.of(POSTGRES, SQL_SERVER, MARIADB);
    }

    // --- parameters ----------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("dialects")
    void everyStatementHasAsManyPlaceholdersAsItsParameters(IdempotencyDialect dialect) {
        assertThat(placeholders(dialect.record()))
                .isEqualTo(dialect.recordParameters(CUSTOMER, KEY, FINGERPRINT, ORDER).length);
        assertThat(placeholders(dialect.deleteExpired()))
                .isEqualTo(dialect.deleteExpiredParameters(RETENTION, 500).length);
        assertThat(placeholders(dialect.find())).isEqualTo(2);
        assertThat(placeholderAt(dialect.find(), "customer_id = ")).isEqualTo(1);
        assertThat(placeholderAt(dialect.find(), "idempotency_key = ")).isEqualTo(2);
        dialect.deleteLocked().ifPresent(deleteLocked -> {
            // JdbcIdempotencyKeys binds the customer and key that the purge's locking read returned
            assertThat(placeholderAt(deleteLocked, "customer_id = ")).isEqualTo(1);
            assertThat(placeholderAt(deleteLocked, "idempotency_key = ")).isEqualTo(2);
            assertThat(placeholders(deleteLocked)).isEqualTo(2);
        });
    }

    @Test
    void theMariaDbRecordBindsEveryValueAsTextWhereTheStatementUsesIt() {
        String record = MARIADB.record();

        assertThat(MARIADB.recordParameters(CUSTOMER, KEY, FINGERPRINT, ORDER))
                .containsExactly(CUSTOMER.toString(), KEY, FINGERPRINT, ORDER.toString());
        assertThat(columns(record)).containsExactly("customer_id", "idempotency_key", "request_hash", "order_id");
        assertThat(record).endsWith("VALUES (?, ?, ?, ?)");
    }

    @Test
    void theMariaDbPurgeBindsTheRetentionInSecondsThenTheLimit() {
        String purge = MARIADB.deleteExpired();

        assertThat(MARIADB.deleteExpiredParameters(RETENTION, 500)).containsExactly(86_400L, 500);
        assertThat(placeholderAt(purge, "UTC_TIMESTAMP\\(6\\) - INTERVAL ")).isEqualTo(1);
        assertThat(placeholderAt(purge, "LIMIT ")).isEqualTo(2);
    }

    @Test
    void thePostgresRecordBindsEveryValueWhereTheStatementUsesIt() {
        String record = POSTGRES.record();
        Object[] parameters = POSTGRES.recordParameters(CUSTOMER, KEY, FINGERPRINT, ORDER);

        assertThat(parameters).containsExactly(CUSTOMER, KEY, FINGERPRINT, ORDER,
                PostgresIdempotencyDialect.lockId(CUSTOMER, KEY));
        assertThat(columns(record)).containsExactly("customer_id", "idempotency_key", "request_hash", "order_id");
        assertThat(placeholderAt(record, "pg_try_advisory_xact_lock\\(")).isEqualTo(5);
    }

    @Test
    void theSqlServerRecordBindsEveryValueWhereTheStatementUsesIt() {
        String record = SQL_SERVER.record();
        Object[] parameters = SQL_SERVER.recordParameters(CUSTOMER, KEY, FINGERPRINT, ORDER);

        assertThat(parameters).containsExactly(CUSTOMER.toString(), KEY, FINGERPRINT, ORDER.toString(),
                CUSTOMER.toString(), KEY);
        assertThat(columns(record)).containsExactly("customer_id", "idempotency_key", "request_hash", "order_id");
        assertThat(placeholderAt(record, "WHERE customer_id = ")).isEqualTo(5);
        assertThat(placeholderAt(record, "AND idempotency_key = ")).isEqualTo(6);
    }

    @Test
    void thePostgresPurgeBindsTheRetentionInSecondsThenTheLimit() {
        String purge = POSTGRES.deleteExpired();

        assertThat(POSTGRES.deleteExpiredParameters(RETENTION, 500)).containsExactly(86_400L, 500);
        assertThat(placeholderAt(purge, "now\\(\\) - ")).isEqualTo(1);
        assertThat(placeholderAt(purge, "LIMIT ")).isEqualTo(2);
    }

    @Test
    void theSqlServerPurgeBindsTheLimitThenTheRetentionAsNegativeSeconds() {
        String purge = SQL_SERVER.deleteExpired();

        assertThat(SQL_SERVER.deleteExpiredParameters(RETENTION, 500)).containsExactly(500, -86_400);
        assertThat(placeholderAt(purge, "TOP \\(")).isEqualTo(1);
        assertThat(placeholderAt(purge, "DATEADD\\(second, ")).isEqualTo(2);
    }

    @Test
    void aRetentionTooLongForSqlServersDateaddIsRefusedRatherThanWrapped() {
        assertThatThrownBy(() -> SQL_SERVER.deleteExpiredParameters(Duration.ofDays(25_000), 500))
                .isInstanceOf(ArithmeticException.class);
    }

    // --- never waiting -------------------------------------------------------------------------------------------

    @Test
    void thePostgresRecordTakesTheKeysAdvisoryLockWithoutWaitingAndIgnoresACommittedDuplicate() {
        String record = POSTGRES.record();

        assertThat(record).contains("WHERE pg_try_advisory_xact_lock(?)",
                "ON CONFLICT (customer_id, idempotency_key) DO NOTHING");
        assertThat(record).doesNotContainPattern("pg_advisory_(xact_)?lock\\(");
    }

    @Test
    void theAdvisoryLockOfAKeyIsTheSameInEveryInstanceAndVersion() {
        // Instances of two versions run side by side during a rolling deployment: they must lock the same id.
        assertThat(PostgresIdempotencyDialect.lockId(CUSTOMER, KEY)).isEqualTo(-8036507634773461782L);
        assertThat(PostgresIdempotencyDialect.lockId(CUSTOMER, KEY + "x"))
                .isNotEqualTo(PostgresIdempotencyDialect.lockId(CUSTOMER, KEY));
        assertThat(PostgresIdempotencyDialect.lockId(UUID.randomUUID(), KEY))
                .isNotEqualTo(PostgresIdempotencyDialect.lockId(CUSTOMER, KEY));
    }

    @Test
    void theSqlServerRecordNeverWaitsForTheKeysLockNeitherInTheCheckNorInTheInsert() {
        String record = SQL_SERVER.record();

        assertThat(record).startsWith("INSERT INTO idempotency_key " + NOWAIT + " (");
        assertThat(occurrences(record, "FROM idempotency_key " + NOWAIT)).isOne();
        assertThat(record).contains("WHERE NOT EXISTS (");
    }

    @Test
    void sqlServerErrorsAreToldApartByTheirNumbers() {
        assertThat(SQL_SERVER.heldByAnotherTransaction(sqlError(1222))).isTrue();
        assertThat(SQL_SERVER.recordedMeanwhile(sqlError(2627))).isTrue();
        assertThat(SQL_SERVER.recordedMeanwhile(sqlError(2601))).isTrue();
        for (int other : new int[] {0, 1205, 547, 8152}) {
            assertThat(SQL_SERVER.heldByAnotherTransaction(sqlError(other))).as("error %d", other).isFalse();
            assertThat(SQL_SERVER.recordedMeanwhile(sqlError(other))).as("error %d", other).isFalse();
        }
    }

    /**
     * The timeout is set for the insert alone ({@code SET STATEMENT ... FOR}), never for the session: the order's
     * other statements in the same transaction still wait for locks as usual.
     */
    @Test
    void theMariaDbRecordNeverWaitsForTheKeysLockAndTheRestOfTheSessionDoes() {
        String record = MARIADB.record();

        assertThat(record).startsWith(NO_LOCK_WAIT + "INSERT INTO idempotency_key (");
        assertThat(occurrences(record, "innodb_lock_wait_timeout")).isOne();
        // the outcomes are told apart by their errors (1205, 1062), which IGNORE or an upsert would swallow
        assertThat(record).doesNotContainPattern("(?i)\\bSET\\s+(SESSION|GLOBAL)\\b")
                .doesNotContainPattern("(?i)INSERT\\s+IGNORE").doesNotContainPattern("(?i)ON\\s+DUPLICATE");
    }

    @Test
    void mariaDbErrorsAreToldApartByTheirNumbers() {
        assertThat(MARIADB.heldByAnotherTransaction(sqlError(1205))).isTrue();
        assertThat(MARIADB.recordedMeanwhile(sqlError(1062))).isTrue();
        // 1213 is a deadlock, 1222 and 2627 are SQL Server's numbers
        for (int other : new int[] {0, 1213, 1222, 2627, 1452}) {
            assertThat(MARIADB.heldByAnotherTransaction(sqlError(other))).as("error %d", other).isFalse();
            assertThat(MARIADB.recordedMeanwhile(sqlError(other))).as("error %d", other).isFalse();
        }
    }

    @Test
    void onPostgresNoErrorMeansInFlightOrTakenBecauseTheInsertRaisesNeither() {
        SQLException lockNotAvailable = new SQLException("could not obtain lock", "55P03");
        SQLException uniqueViolation = new SQLException("duplicate key", "23505");

        for (SQLException failure : List.of(lockNotAvailable, uniqueViolation)) {
            assertThat(POSTGRES.heldByAnotherTransaction(failure)).isFalse();
            assertThat(POSTGRES.recordedMeanwhile(failure)).isFalse();
        }
    }

    // --- purging alongside other instances -----------------------------------------------------------------------

    @Test
    void thePostgresPurgeTakesAtMostTheLimitAndSkipsRowsOthersHold() {
        String purge = POSTGRES.deleteExpired();

        assertThat(purge).contains("LIMIT ?", "FOR UPDATE SKIP LOCKED", "created_at < now() - ");
        assertThat(occurrences(purge, "LIMIT")).isOne();
    }

    /**
     * MariaDB's {@code DELETE} takes no {@code SKIP LOCKED}: the oldest expired keys are locked by a locking read that
     * skips held rows, and each is deleted by its primary key in the same transaction.
     */
    @Test
    void theMariaDbPurgeLocksAtMostTheLimitSkippingRowsOthersHoldAndDeletesThemByKey() {
        String purge = MARIADB.deleteExpired();

        assertThat(purge).startsWith("SELECT customer_id, idempotency_key FROM idempotency_key")
                .contains("created_at < UTC_TIMESTAMP(6) - INTERVAL ? SECOND", "ORDER BY created_at")
                .containsPattern("LIMIT \\?\\s+FOR UPDATE SKIP LOCKED$");
        assertThat(occurrences(purge, "LIMIT")).isOne();
        assertThat(MARIADB.deleteLocked())
                .contains("DELETE FROM idempotency_key WHERE customer_id = ? AND idempotency_key = ?");
        assertThat(POSTGRES.deleteLocked()).as("deletes by itself").isEmpty();
        assertThat(SQL_SERVER.deleteLocked()).as("deletes by itself").isEmpty();
    }

    @Test
    void theSqlServerPurgeTakesAtMostTheLimitAndSkipsRowsOthersHold() {
        String purge = SQL_SERVER.deleteExpired();

        assertThat(purge).contains("SELECT TOP (?) * FROM idempotency_key " + PURGE_HINTS,
                "created_at < DATEADD(second, ?, SYSDATETIMEOFFSET())", "ORDER BY created_at)");
        assertThat(purge).endsWith("DELETE FROM expired");
    }

    // --- no dialect borrows the other's syntax -------------------------------------------------------------------

    @Test
    void noSqlServerStatementUsesPostgresSyntax() {
        List<String> postgresOnly = List.of("(?i)\\bLIMIT\\b", "(?i)FOR\\s+UPDATE", "(?i)SKIP\\s+LOCKED",
                "(?i)ON\\s+CONFLICT", "(?i)RETURNING", "::", "(?i)\\bnow\\(\\)", "(?i)\\binterval\\b",
                "(?i)pg_", "(?i)AS uuid", "(?i)\\bctid\\b");
        statements(SQL_SERVER).forEach((name, statement) -> postgresOnly.forEach(pattern ->
                assertThat(statement).as("SQL Server %s", name).doesNotContainPattern(pattern)));
    }

    @Test
    void noPostgresStatementUsesSqlServerSyntax() {
        List<String> sqlServerOnly = List.of("(?i)\\bTOP\\s*\\(", "(?i)\\bOUTPUT\\b", "(?i)SYSDATETIMEOFFSET",
                "(?i)DATEADD", "(?i)NOWAIT", "(?i)UPDLOCK", "(?i)READPAST", "(?i)ROWLOCK", "(?i)uniqueidentifier",
                "\\[");
        statements(POSTGRES).forEach((name, statement) -> sqlServerOnly.forEach(pattern ->
                assertThat(statement).as("PostgreSQL %s", name).doesNotContainPattern(pattern)));
    }

    /** Times are UTC {@code datetime(6)}: {@code NOW()} and {@code CURRENT_TIMESTAMP} give the session's zone. */
    @Test
    void noMariaDbStatementUsesPostgresOrSqlServerSyntaxOrTheSessionsClock() {
        List<String> otherEngines = List.of("(?i)ON\\s+CONFLICT", "(?i)RETURNING", "::", "(?i)\\bnow\\s*\\(",
                "(?i)\\binterval\\s+'", "(?i)pg_", "(?i)AS uuid", "(?i)\\bTOP\\s*\\(", "(?i)\\bOUTPUT\\b",
                "(?i)SYSDATETIMEOFFSET", "(?i)DATEADD", "(?i)NOWAIT", "(?i)UPDLOCK", "(?i)READPAST", "(?i)ROWLOCK",
                "(?i)uniqueidentifier", "\\[", "(?i)CURRENT_TIMESTAMP", "(?i)UTC_TIMESTAMP(?!\\(6\\))");
        statements(MARIADB).forEach((name, statement) -> otherEngines.forEach(pattern ->
                assertThat(statement).as("MariaDB %s", name).doesNotContainPattern(pattern)));
    }

    @Test
    void noPostgresOrSqlServerStatementUsesMariaDbSyntax() {
        List<String> mariaDbOnly = List.of("(?i)SET\\s+STATEMENT", "(?i)innodb_", "(?i)UTC_TIMESTAMP",
                "(?i)INSERT\\s+IGNORE", "`");
        for (IdempotencyDialect dialect : List.of(POSTGRES, SQL_SERVER)) {
            statements(dialect).forEach((name, statement) -> mariaDbOnly.forEach(pattern ->
                    assertThat(statement).as("%s %s", dialect.getClass().getSimpleName(), name)
                            .doesNotContainPattern(pattern)));
        }
    }

    // --- a real SQL parser ---------------------------------------------------------------------------------------

    /**
     * JSqlParser knows T-SQL's {@code TOP (?)} and {@code DATEADD}, but not the table hints {@code NOWAIT},
     * {@code ROWLOCK} and {@code READPAST}: they are checked literally above and set aside here before parsing.
     */
    @Test
    void everySqlServerStatementParsesOnceItsTableHintsAreSetAside() {
        statements(SQL_SERVER).forEach((name, statement) -> {
            String parsed = withoutTableHints(statement);
            assertThatNoException().as("SQL Server %s", name).isThrownBy(() -> CCJSqlParserUtil.parse(parsed));
        });
    }

    @Test
    void everyPostgresStatementParses() {
        statements(POSTGRES).forEach((name, statement) -> assertThatNoException().as("PostgreSQL %s", name)
                .isThrownBy(() -> CCJSqlParserUtil.parse(statement)));
    }

    /**
     * JSqlParser does not know MariaDB's {@code SET STATEMENT ... FOR}, which wraps the insert: that prefix is pinned
     * literally ({@link #theMariaDbRecordNeverWaitsForTheKeysLockAndTheRestOfTheSessionDoes}) and set aside here, so
     * the insert under it still goes through the parser.
     */
    @Test
    void everyMariaDbStatementParsesOnceTheRecordsStatementVariableIsSetAside() {
        statements(MARIADB).forEach((name, statement) -> {
            String parsed = withoutStatementVariable(statement);
            assertThatNoException().as("MariaDB %s", name).isThrownBy(() -> CCJSqlParserUtil.parse(parsed));
        });
    }

    @Test
    void theParserWouldRejectABrokenStatement() {
        String broken = POSTGRES.deleteExpired().replace("FOR UPDATE SKIP LOCKED)", "FOR UPDATE SKIP LOCKED");
        String brokenMariaDb = withoutStatementVariable(MARIADB.record()).replace("VALUES (?, ?, ?, ?)",
                "VALUES (?, ?, ?, ?");

        assertThat(catchThrowable(() -> CCJSqlParserUtil.parse(broken))).isNotNull();
        assertThat(catchThrowable(() -> CCJSqlParserUtil.parse(brokenMariaDb))).isNotNull();
        assertThat(catchThrowable(() -> CCJSqlParserUtil.parse(MARIADB.record())))
                .as("SET STATEMENT ... FOR, which is why it is set aside").isNotNull();
    }

    // --- choosing the dialect ------------------------------------------------------------------------------------

    @Test
    void theDialectFollowsTheDatabase() {
        assertThat(IdempotencyDialect.of(Database.POSTGRESQL)).isInstanceOf(PostgresIdempotencyDialect.class);
        assertThat(IdempotencyDialect.of(Database.SQL_SERVER)).isInstanceOf(SqlServerIdempotencyDialect.class);
        assertThat(IdempotencyDialect.of(Database.MARIADB)).isInstanceOf(MariaDbIdempotencyDialect.class);
    }

    // --- helpers -------------------------------------------------------------------------------------------------

    private static Map<String, String> statements(IdempotencyDialect dialect) {
        Map<String, String> statements = new LinkedHashMap<>();
        statements.put("record", dialect.record());
        statements.put("find", dialect.find());
        statements.put("deleteExpired", dialect.deleteExpired());
        dialect.deleteLocked().ifPresent(sql -> statements.put("deleteLocked", sql));
        return statements;
    }

    private static String withoutStatementVariable(String statement) {
        return statement.startsWith(NO_LOCK_WAIT) ? statement.substring(NO_LOCK_WAIT.length()) : statement;
    }

    private static String withoutTableHints(String statement) {
        return statement.replace(" " + NOWAIT, "").replace(" " + PURGE_HINTS, "");
    }

    /** The columns of the {@code INSERT}'s column list, in order. */
    private static List<String> columns(String insert) {
        Matcher list = Pattern.compile("INSERT INTO idempotency_key (?:WITH \\(NOWAIT\\) )?\\(([^)]*)\\)")
                .matcher(insert);
        assertThat(list.find()).as(insert).isTrue();
        return Stream.of(list.group(1).split(",")).map(String::strip).toList();
    }

    /** The JDBC placeholders of a statement: question marks outside literals. */
    private static int placeholders(String sql) {
        return sql.replaceAll("'[^']*'", "").replaceAll("[^?]", "").length();
    }

    /** The 1-based position of the placeholder that directly follows the only match of {@code before}. */
    private static int placeholderAt(String sql, String before) {
        Matcher matcher = Pattern.compile(before + "\\?").matcher(sql);
        assertThat(matcher.find()).as("'%s?' in %s", before, sql).isTrue();
        int end = matcher.end();
        assertThat(matcher.find()).as("a second '%s?' in %s", before, sql).isFalse();
        return placeholders(sql.substring(0, end));
    }

    private static int occurrences(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }

    private static SQLException sqlError(int number) {
        return new SQLException("error " + number, "S0001", number);
    }
}
