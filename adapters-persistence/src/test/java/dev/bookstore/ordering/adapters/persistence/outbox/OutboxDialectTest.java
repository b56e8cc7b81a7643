package dev.bookstore.ordering.adapters.persistence.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bookstore.ordering.adapters.persistence.Database;
import java.lang.reflect.Proxy;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The statements of every dialect, checked without a database, so they are checked everywhere — SQL Server's
 * too, where no SQL Server can be started. The contract tests ({@code *OutboxStoreIT}) run them for real.
 */
class OutboxDialectTest {

    private static final PostgresOutboxDialect POSTGRES = new PostgresOutboxDialect();
    private static final SqlServerOutboxDialect SQL_SERVER = new SqlServerOutboxDialect();
    private static final MariaDbOutboxDialect MARIADB = new MariaDbOutboxDialect();
    private static final String LOCK_HINTS = "WITH (UPDLOCK, READPAST, ROWLOCK)";
    /** MariaDB's id list: the JSON array parameter as a table of ids, joined to the outbox row {@code m}. */
    private static final String JSON_IDS = "JOIN JSON_TABLE(?, '$[*]' COLUMNS (id char(36) PATH '$')) ids";
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final List<String> RETURNED_COLUMNS = List.of("id", "aggregate_type", "aggregate_id", "type",
            "exchange", "routing_key", "payload", "headers", "occurred_at", "attempts", "position");
    private static final Duration RETENTION = Duration.ofDays(30).plusMillis(1_500);

    static Stream<OutboxDialect> dialects() {
        return Stream.of(POSTGRES, SQL_SERVER, MARIADB);
    }

    // --- parameters ----------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("dialects")
    void everyStatementHasAsManyPlaceholdersAsTheStoreBinds(OutboxDialect dialect) {
        int claimParameters = dialect.claimParameters("relay-a", 10, LEASE).length;
        // Owner, lease and batch size: all in the claim, or (MariaDB) the batch size in the locking read and the
        // owner and lease in the lease after it, which JdbcOutboxStore binds behind the id list.
        int leaseParameters = dialect.leaseClaimed().map(lease -> placeholders(lease) - 1).orElse(0);

        assertThat(claimParameters + leaseParameters).isEqualTo(3);
        assertThat(placeholders(dialect.claim(false))).isEqualTo(claimParameters);
        assertThat(placeholders(dialect.claim(true))).isEqualTo(claimParameters);
        // The counts JdbcOutboxStore binds, as the OutboxDialect javadoc lists them.
        assertThat(placeholders(dialect.insert())).isEqualTo(9);
        assertThat(placeholders(dialect.markPublished())).isEqualTo(2);
        assertThat(placeholders(dialect.release())).isEqualTo(2);
        assertThat(placeholders(dialect.recordFailure())).isEqualTo(6);
        assertThat(placeholders(dialect.unpark())).isEqualTo(1);
        assertThat(placeholders(dialect.deletePublished()))
                .isEqualTo(dialect.deletePublishedParameters(RETENTION, 100).length);
        assertThat(placeholders(dialect.stats())).isZero();
        assertThat(placeholders(OutboxDialect.COUNT_PUBLISHED)).isEqualTo(2);
    }

    @Test
    void postgresMarksAndCountsInOneStatementThatBindsIdsOwnerAndSlotWhereItUsesThem() {
        String markAndCount = POSTGRES.markPublishedAndCount().orElseThrow();

        assertThat(placeholders(markAndCount)).isEqualTo(3);
        // the marking is the statement SQL Server runs in its transaction, returning a row per row marked
        assertThat(markAndCount).startsWith("WITH marked AS (" + POSTGRES.markPublished() + "\n RETURNING 1)");
        assertThat(placeholderAt(markAndCount, "WHERE id = ANY\\(")).isEqualTo(1);
        assertThat(placeholderAt(markAndCount, "AND claimed_by = ")).isEqualTo(2);
        // the count adds what was marked to the owner's slot, only where something was, and the number comes back
        assertThat(placeholderAt(markAndCount, "WHERE slot = ")).isEqualTo(3);
        assertThat(markAndCount).contains(
                "UPDATE outbox_published_count SET published = published + (SELECT count(*) FROM marked)",
                "AND EXISTS (SELECT 1 FROM marked)").endsWith("SELECT count(*) FROM marked");
    }

    @Test
    void onlyPostgresRelayConnectionsCommitWithoutWaitingForTheWalFlush() {
        assertThat(POSTGRES.relayConnectionSetup()).contains("SET synchronous_commit TO off");
        assertThat(SQL_SERVER.relayConnectionSetup()).isEmpty();
        assertThat(MARIADB.relayConnectionSetup()).isEmpty();
    }

    @Test
    void sqlServerMarksAndCountsInATransactionOfTwoStatements() {
        assertThat(SQL_SERVER.markPublishedAndCount()).isEmpty();
    }

    @Test
    void mariaDbMarksAndCountsInATransactionOfTwoStatements() {
        assertThat(MARIADB.markPublishedAndCount()).isEmpty();
    }

    @Test
    void theSqlServerClaimBindsBatchSizeOwnerAndLeaseWhereTheStatementUsesThem() {
        Object[] parameters = SQL_SERVER.claimParameters("relay-a", 25, LEASE);

        for (boolean ordered : new boolean[] {false, true}) {
            String claim = SQL_SERVER.claim(ordered);
            assertThat(parameters[placeholderAt(claim, "TOP \\(") - 1]).isEqualTo(25);
            assertThat(parameters[placeholderAt(claim, "SET claimed_by = ") - 1]).isEqualTo("relay-a");
            assertThat(parameters[placeholderAt(claim, "DATEADD\\(millisecond, ") - 1]).isEqualTo(30_000);
        }
    }

    @Test
    void thePostgresClaimBindsOwnerLeaseAndBatchSizeWhereTheStatementUsesThem() {
        Object[] parameters = POSTGRES.claimParameters("relay-a", 25, LEASE);

        for (boolean ordered : new boolean[] {false, true}) {
            String claim = POSTGRES.claim(ordered);
            assertThat(parameters[placeholderAt(claim, "SET claimed_by = ") - 1]).isEqualTo("relay-a");
            assertThat(parameters[placeholderAt(claim, "now\\(\\) \\+ ") - 1]).isEqualTo(30_000L);
            assertThat(parameters[placeholderAt(claim, "LIMIT ") - 1]).isEqualTo(25);
        }
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void outcomeStatementsExpectTheirParametersInTheOrderTheStoreBindsThem(OutboxDialect dialect) {
        String recordFailure = dialect.recordFailure();
        assertThat(placeholderAt(recordFailure, "status = ")).isEqualTo(1);
        assertThat(placeholderAt(recordFailure, "last_error = ")).isEqualTo(2);
        assertThat(placeholderAt(recordFailure, "next_attempt_at = COALESCE\\("
                + "(now\\(\\) \\+ |DATEADD\\(millisecond, |UTC_TIMESTAMP\\(6\\) \\+ INTERVAL )")).isEqualTo(3);
        assertThat(placeholderAt(recordFailure, "parked_at = CASE WHEN ")).isEqualTo(4);
        assertThat(placeholderAt(recordFailure, "WHERE id = ")).isEqualTo(5);
        assertThat(placeholderAt(recordFailure, "AND claimed_by = ")).isEqualTo(6);

        // MariaDB joins the id list as a table, so the owner is the first condition of its WHERE
        for (String byOwner : List.of(dialect.markPublished(), dialect.release())) {
            assertThat(placeholderAt(byOwner, "(AND|WHERE) claimed_by = ")).isEqualTo(2);
        }
    }

    @Test
    void theMariaDbClaimBindsTheBatchSizeAndItsLeaseTheIdsOwnerAndLeaseWhereTheStatementsUseThem() {
        Object[] parameters = MARIADB.claimParameters("relay-a", 25, LEASE);
        String lease = MARIADB.leaseClaimed().orElseThrow();

        for (boolean ordered : new boolean[] {false, true}) {
            assertThat(parameters[placeholderAt(MARIADB.claim(ordered), "LIMIT ") - 1]).isEqualTo(25);
        }
        assertThat(parameters).containsExactly(25);
        // JdbcOutboxStore binds the id list, the owner, then lease.toMillis()
        assertThat(placeholderAt(lease, "JSON_TABLE\\(")).isEqualTo(1);
        assertThat(placeholderAt(lease, "SET m.claimed_by = ")).isEqualTo(2);
        assertThat(placeholderAt(lease, "m.claimed_until = UTC_TIMESTAMP\\(6\\) \\+ INTERVAL ")).isEqualTo(3);
        assertThat(lease).contains("INTERVAL ? * 1000 MICROSECOND");
    }

    @Test
    void onlyMariaDbLeasesTheClaimedRowsInASecondStatement() {
        assertThat(POSTGRES.leaseClaimed()).isEmpty();
        assertThat(SQL_SERVER.leaseClaimed()).isEmpty();
        assertThat(MARIADB.leaseClaimed()).isPresent();
    }

    @Test
    void thePostgresRetentionBindsTheAgeInMillisecondsAndTheLimitWhereTheStatementUsesThem() {
        String delete = POSTGRES.deletePublished();
        Object[] parameters = POSTGRES.deletePublishedParameters(RETENTION, 100);

        assertThat(parameters[placeholderAt(delete, "published_at < now\\(\\) - ") - 1])
                .isEqualTo(RETENTION.toMillis());
        assertThat(parameters[placeholderAt(delete, "LIMIT ") - 1]).isEqualTo(100);
    }

    @Test
    void theSqlServerRetentionGoesBackTheAgeInSecondsThenMillisecondsSoThatWeeksFitDateaddsInt() {
        String delete = SQL_SERVER.deletePublished();
        Object[] parameters = SQL_SERVER.deletePublishedParameters(RETENTION, 100);

        assertThat(delete).contains("published_at < DATEADD(millisecond, ?, DATEADD(second, ?, SYSDATETIMEOFFSET()))");
        assertThat(parameters[placeholderAt(delete, "DATEADD\\(millisecond, ") - 1]).isEqualTo(-500);
        assertThat(parameters[placeholderAt(delete, "DATEADD\\(second, ") - 1])
                .isEqualTo(-Math.toIntExact(Duration.ofDays(30).plusSeconds(1).toSeconds()));
        assertThat(parameters[placeholderAt(delete, "FETCH NEXT ") - 1]).isEqualTo(100);
    }

    @Test
    void theMariaDbRetentionIsASingleTableDeleteOfTheOldestWithTheAgeInMillisecondsAndTheLimit() {
        String delete = MARIADB.deletePublished();
        Object[] parameters = MARIADB.deletePublishedParameters(RETENTION, 100);

        // A single-table DELETE takes ORDER BY and LIMIT; MariaDB takes no LIMIT in an IN subquery.
        assertThat(delete).startsWith("DELETE FROM outbox_message\n").doesNotContain("IN (SELECT")
                .contains("WHERE status = 'PUBLISHED'"
                        + " AND published_at < UTC_TIMESTAMP(6) - INTERVAL ? * 1000 MICROSECOND")
                .containsPattern("ORDER BY position\\s+LIMIT \\?$");
        assertThat(parameters[placeholderAt(delete, "UTC_TIMESTAMP\\(6\\) - INTERVAL ") - 1])
                .isEqualTo(RETENTION.toMillis());
        assertThat(parameters[placeholderAt(delete, "LIMIT ") - 1]).isEqualTo(100);
    }

    // --- the database's clock and order, never a JVM's -----------------------------------------------------------

    @ParameterizedTest
    @MethodSource("dialects")
    void noStatementComparesOrStoresATimeThatAJvmBinds(OutboxDialect dialect) {
        // A time column next to a placeholder would be a JVM instant; occurred_at is only ever inserted.
        Pattern jvmTime = Pattern.compile("(?i)(_at|_until)\\s*(<|>|<=|>=|=)\\s*\\?|COALESCE\\(\\s*\\?");
        statements(dialect).forEach((name, statement) ->
                assertThat(statement).as("%s %s", dialect.getClass().getSimpleName(), name).doesNotContainPattern(jvmTime));
        statements(dialect).forEach((name, statement) -> {
            if (!name.equals("insert") && !name.startsWith("claim")) {
                assertThat(statement).as("%s %s", dialect.getClass().getSimpleName(), name).doesNotContain("occurred_at");
            }
        });
    }

    @ParameterizedTest
    @MethodSource("orderedOrNotPerDialect")
    void theClaimOrdersByTheDatabasesPositionAndNeverByOccurredAt(OutboxDialect dialect, boolean ordered) {
        String claim = dialect.claim(ordered);

        assertThat(claim).contains("ORDER BY m.position").doesNotContainPattern("(?i)ORDER BY[^)]*occurred_at");
        // occurred_at is only returned, for the AMQP timestamp: by RETURNING or OUTPUT, or (MariaDB) by the
        // select list of the locking read.
        if (dialect.leaseClaimed().isPresent()) {
            int from = claim.indexOf("FROM outbox_message m");
            assertThat(claim.substring(0, from)).contains("occurred_at");
            assertThat(claim.substring(from)).doesNotContain("occurred_at");
        } else {
            assertThat(claim.replaceAll("(?s)^.*(RETURNING|OUTPUT)", "")).contains("occurred_at");
            assertThat(claim.replaceAll("(?s)(RETURNING|OUTPUT).*$", "")).doesNotContain("occurred_at");
        }
    }

    static Stream<Arguments> orderedOrNotPerDialect() {
        return dialects().flatMap(dialect -> orderedOrNot().map(ordered -> Arguments.of(dialect, ordered)));
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void theHeadOfAnAggregateIsItsUnpublishedRowOfTheLowestPosition(OutboxDialect dialect) {
        assertThat(OutboxDialect.HEAD_OF_AGGREGATE).contains("earlier.position < m.position")
                .doesNotContain("occurred_at");
        assertThat(dialect.claim(true)).contains(OutboxDialect.HEAD_OF_AGGREGATE);
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void theDatabaseGivesPositionAndCreatedAtAtInsert(OutboxDialect dialect) {
        assertThat(dialect.insert()).doesNotContainPattern("(?i)\\bposition\\b")
                .doesNotContainPattern("(?i)created_at");
    }

    @Test
    void thePendingAgeRunsFromCreatedAtToTheDatabasesNow() {
        assertThat(POSTGRES.stats()).contains("now() - min(created_at)");
        assertThat(SQL_SERVER.stats()).containsPattern("DATEDIFF_BIG\\(millisecond,\\s+"
                + "MIN\\(CASE WHEN status = 'PENDING' THEN created_at END\\), SYSDATETIMEOFFSET\\(\\)\\)");
        assertThat(MARIADB.stats()).containsPattern("TIMESTAMPDIFF\\(MICROSECOND, "
                + "MIN\\(CASE WHEN status = 'PENDING' THEN created_at END\\),\\s+UTC_TIMESTAMP\\(6\\)\\) DIV 1000");
    }

    @Test
    void mariaDbCountsTheUnpublishedRowsByTheirStatusSoTheScanStaysOnTheStatusIndex() {
        // The same rows as published_at IS NULL elsewhere: V7's CHECK ties PUBLISHED to a published_at.
        assertThat(MARIADB.stats()).endsWith("FROM outbox_message WHERE status IN ('PENDING', 'PARKED')")
                .contains("SUM(status = 'PENDING')", "SUM(status = 'PARKED')",
                        "(SELECT SUM(published) FROM outbox_published_count)");
    }

    @Test
    void theFirstLeaseEndIsMeasuredFromTheDatabasesNowOverLivePendingLeasesOnly() {
        assertThat(POSTGRES.stats()).containsPattern("CEIL\\(EXTRACT\\(EPOCH FROM min\\(claimed_until\\)\\s+"
                + "FILTER \\(WHERE status = 'PENDING' AND claimed_until >= now\\(\\)\\) - now\\(\\)\\) \\* 1000\\)");
        assertThat(SQL_SERVER.stats()).containsPattern("DATEDIFF_BIG\\(millisecond, SYSDATETIMEOFFSET\\(\\),\\s+"
                + "MIN\\(CASE WHEN status = 'PENDING' AND claimed_until >= SYSDATETIMEOFFSET\\(\\)\\s+"
                + "THEN claimed_until END\\)\\)");
        assertThat(MARIADB.stats()).containsPattern("CEIL\\(TIMESTAMPDIFF\\(MICROSECOND, UTC_TIMESTAMP\\(6\\),\\s+"
                + "MIN\\(CASE WHEN status = 'PENDING' AND claimed_until >= UTC_TIMESTAMP\\(6\\)\\s+"
                + "THEN claimed_until END\\)\\) / 1000\\)");
        for (OutboxDialect dialect : List.of(POSTGRES, SQL_SERVER, MARIADB)) {
            assertThat(columns(dialect.stats())).as(dialect.getClass().getSimpleName()).isEqualTo(5);
        }
    }

    @Test
    void aRetryIsDueTheDelayAfterTheDatabasesNow() {
        assertThat(POSTGRES.recordFailure())
                .contains("next_attempt_at = COALESCE(now() + ? * interval '1 millisecond', next_attempt_at)");
        assertThat(SQL_SERVER.recordFailure()).contains(
                "next_attempt_at = COALESCE(DATEADD(millisecond, ?, SYSDATETIMEOFFSET()), next_attempt_at)");
        assertThat(MARIADB.recordFailure()).contains(
                "next_attempt_at = COALESCE(UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND, next_attempt_at)");
    }

    /**
     * MariaDB's time columns are {@code datetime(6)} holding UTC: {@code NOW()}, {@code CURRENT_TIMESTAMP} and the
     * like give the session's time zone, and {@code UTC_TIMESTAMP} without a precision drops the microseconds.
     */
    @Test
    void everyMariaDbStatementTellsTimeByTheUtcClockToTheMicrosecond() {
        List<String> zonedOrCoarse = List.of("(?i)\\bnow\\s*\\(", "(?i)CURRENT_TIMESTAMP", "(?i)\\bSYSDATE\\b",
                "(?i)LOCALTIME", "(?i)UNIX_TIMESTAMP", "(?i)CURDATE", "(?i)CURTIME", "(?i)UTC_TIMESTAMP(?!\\(6\\))");
        statements(MARIADB).forEach((name, statement) -> zonedOrCoarse.forEach(pattern ->
                assertThat(statement).as("MariaDB %s", name).doesNotContainPattern(pattern)));
        for (String name : List.of("claim", "claim (ordered)", "leaseClaimed", "recordFailure", "markPublished",
                "unpark", "deletePublished", "stats")) {
            assertThat(statements(MARIADB).get(name)).as(name).contains("UTC_TIMESTAMP(6)");
        }
    }

    // --- id lists ------------------------------------------------------------------------------------------------

    @Test
    void sqlServerPassesAWholeIdListAsOneJsonParameter() {
        for (String statement : List.of(SQL_SERVER.markPublished(), SQL_SERVER.release(), SQL_SERVER.unpark())) {
            assertThat(occurrences(statement, "OPENJSON(?)")).as(statement).isEqualTo(1);
            assertThat(placeholderAt(statement, "OPENJSON\\(")).as("the list comes first").isEqualTo(1);
            assertThat(statement).doesNotContainPattern("IN \\(\\?");
        }
    }

    @Test
    void theSqlServerIdListOfThreeThousandIdsIsOneValidJsonArrayOfTheirStrings() throws Exception {
        List<UUID> ids = IntStream.range(0, 3_000).mapToObj(i -> UUID.randomUUID()).toList();

        Object parameter = SQL_SERVER.idList(fakeConnection("Microsoft SQL Server", new ArrayList<>()), ids);

        assertThat(parameter).isInstanceOf(String.class);
        JsonNode array = JsonMapper.builder().build().readTree((String) parameter);
        assertThat(array.isArray()).isTrue();
        List<String> elements = new ArrayList<>();
        for (JsonNode element : array) {
            assertThat(element.isString()).isTrue();
            elements.add(element.asString());
        }
        assertThat(elements).containsExactlyElementsOf(ids.stream().map(UUID::toString).toList());
    }

    @Test
    void postgresPassesAWholeIdListAsOneUuidArray() throws Exception {
        for (String statement : List.of(POSTGRES.markPublished(), POSTGRES.release(), POSTGRES.unpark())) {
            assertThat(placeholderAt(statement, "WHERE id = ANY\\(")).as(statement).isEqualTo(1);
        }
        List<UUID> ids = IntStream.range(0, 3_000).mapToObj(i -> UUID.randomUUID()).toList();
        List<Object[]> arraysMade = new ArrayList<>();

        Object parameter = POSTGRES.idList(fakeConnection("PostgreSQL", arraysMade), ids);

        assertThat(parameter).isInstanceOf(Array.class);
        assertThat(arraysMade).hasSize(1);
        assertThat(arraysMade.get(0)[0]).isEqualTo("uuid");
        assertThat((Object[]) arraysMade.get(0)[1]).containsExactlyElementsOf(ids);
    }

    @Test
    void mariaDbPassesAWholeIdListAsOneJsonParameterJoinedOnThePrimaryKey() {
        List<String> byIds = List.of(MARIADB.markPublished(), MARIADB.release(), MARIADB.unpark(),
                MARIADB.leaseClaimed().orElseThrow());
        for (String statement : byIds) {
            assertThat(statement).as(statement).startsWith("UPDATE outbox_message m " + JSON_IDS + " ON m.id = ids.id");
            assertThat(occurrences(statement, "JSON_TABLE(?")).as(statement).isEqualTo(1);
            assertThat(placeholderAt(statement, "JSON_TABLE\\(")).as("the list comes first").isEqualTo(1);
            assertThat(statement).doesNotContainPattern("IN \\(\\?").doesNotContainPattern("(?i)\\bLIMIT\\b");
        }
    }

    @Test
    void theMariaDbIdListOfThreeThousandIdsIsOneValidJsonArrayOfTheirStrings() throws Exception {
        List<UUID> ids = IntStream.range(0, 3_000).mapToObj(i -> UUID.randomUUID()).toList();

        Object parameter = MARIADB.idList(fakeConnection("MariaDB", new ArrayList<>()), ids);

        assertThat(parameter).isInstanceOf(String.class);
        JsonNode array = JsonMapper.builder().build().readTree((String) parameter);
        assertThat(array.isArray()).isTrue();
        List<String> elements = new ArrayList<>();
        for (JsonNode element : array) {
            assertThat(element.isString()).isTrue();
            // JSON_TABLE reads each element into char(36): the canonical text of a uuid, nothing longer
            assertThat(element.asString()).hasSize(36);
            elements.add(element.asString());
        }
        assertThat(elements).containsExactlyElementsOf(ids.stream().map(UUID::toString).toList());
    }

    // --- claiming ------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("orderedOrNot")
    void theSqlServerClaimSkipsLockedRowsAndReturnsWhatItLeasedInOneStatement(boolean ordered) {
        String claim = SQL_SERVER.claim(ordered);

        assertThat(claim).contains(LOCK_HINTS, "TOP (?)", "UPDATE claimable", "OUTPUT inserted.");
        assertThat(claim).doesNotContainPattern("(?i)\\bLIMIT\\b").doesNotContainPattern("(?i)FOR\\s+UPDATE")
                .doesNotContainPattern("(?i)RETURNING").doesNotContainPattern("(?i)=\\s*ANY\\s*\\(");
        assertThat(returnedColumns(claim, "OUTPUT", "inserted.")).isEqualTo(RETURNED_COLUMNS);
    }

    @ParameterizedTest
    @MethodSource("orderedOrNot")
    void thePostgresClaimSkipsLockedRowsAndReturnsWhatItLeasedInOneStatement(boolean ordered) {
        String claim = POSTGRES.claim(ordered);

        assertThat(claim).contains("FOR UPDATE SKIP LOCKED", "LIMIT ?", "RETURNING");
        assertThat(returnedColumns(claim, "RETURNING", "")).isEqualTo(RETURNED_COLUMNS);
    }

    /**
     * MariaDB has no {@code UPDATE ... RETURNING}: its claim is the locking read alone, skipping rows other relays
     * lock, and {@link MariaDbOutboxDialect#leaseClaimed()} leases what it returned in the same transaction.
     */
    @ParameterizedTest
    @MethodSource("orderedOrNot")
    void theMariaDbClaimLocksDueRowsSkippingLockedOnesAndReturnsThemForTheLeaseAfterIt(boolean ordered) {
        String claim = MARIADB.claim(ordered);

        assertThat(claim).startsWith("SELECT m.id, ").contains("FROM outbox_message m", MARIADB.claimable())
                .containsPattern("ORDER BY m.position\\s+LIMIT \\?\\s+FOR UPDATE SKIP LOCKED$");
        assertThat(claim).doesNotContainPattern("(?i)RETURNING")
                .doesNotContainPattern("(?i)\\bUPDATE\\s+outbox_message")
                .doesNotContainPattern("(?i)\\bSET\\b");
        assertThat(selectedColumns(claim, "m.")).isEqualTo(RETURNED_COLUMNS);
        assertThat(MARIADB.claimable()).as("the rows PostgreSQL's claim takes")
                .isEqualTo(POSTGRES.claimable().replace("now()", "UTC_TIMESTAMP(6)"));
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void onlyOrderedClaimsAskForTheHeadOfTheAggregate(OutboxDialect dialect) {
        String headOfAggregate = dialect instanceof PostgresOutboxDialect ? PostgresOutboxDialect.HEAD_OF_AGGREGATE
                : dialect instanceof SqlServerOutboxDialect ? SqlServerOutboxDialect.HEAD_OF_AGGREGATE
                : MariaDbOutboxDialect.HEAD_OF_AGGREGATE;

        assertThat(headOfAggregate).contains("NOT EXISTS", "earlier.aggregate_id = m.aggregate_id",
                "earlier.published_at IS NULL");
        // Parked rows are unpublished: they keep holding their aggregate's line (see JdbcOutboxStoreContract).
        assertThat(headOfAggregate).doesNotContain("status");
        assertThat(dialect.claim(true)).contains(headOfAggregate);
        assertThat(dialect.claim(false)).doesNotContain("NOT EXISTS");
    }

    static Stream<Boolean> orderedOrNot() {
        return Stream.of(false, true);
    }

    // --- no dialect borrows the other's syntax -------------------------------------------------------------------

    @Test
    void noSqlServerStatementUsesPostgresSyntax() {
        List<String> postgresOnly = List.of("(?i)\\bLIMIT\\b", "(?i)FOR\\s+UPDATE", "(?i)SKIP\\s+LOCKED",
                "(?i)RETURNING", "(?i)\\bANY\\s*\\(", "::", "(?i)\\bnow\\(\\)", "(?i)\\binterval\\b",
                "(?i)FILTER\\s*\\(", "(?i)jsonb", "(?i)EXTRACT\\s*\\(", "(?i)\\bctid\\b");
        statements(SQL_SERVER).forEach((name, statement) -> postgresOnly.forEach(pattern ->
                assertThat(statement).as("SQL Server %s", name).doesNotContainPattern(pattern)));
    }

    @Test
    void noPostgresStatementUsesSqlServerSyntax() {
        List<String> sqlServerOnly = List.of("(?i)\\bTOP\\s*\\(", "(?i)\\bOUTPUT\\b", "(?i)OPENJSON",
                "(?i)SYSDATETIMEOFFSET", "(?i)DATEADD", "(?i)DATEDIFF", "(?i)UPDLOCK", "(?i)READPAST",
                "(?i)uniqueidentifier", "\\[", "(?i)COUNT_BIG", "(?i)FETCH\\s+NEXT");
        statements(POSTGRES).forEach((name, statement) -> sqlServerOnly.forEach(pattern ->
                assertThat(statement).as("PostgreSQL %s", name).doesNotContainPattern(pattern)));
    }

    /** MariaDB's {@code INTERVAL ? * 1000 MICROSECOND} is its own; PostgreSQL's {@code interval '...'} is not. */
    @Test
    void noMariaDbStatementUsesPostgresOrSqlServerSyntax() {
        List<String> otherEngines = List.of("(?i)RETURNING", "(?i)\\bANY\\s*\\(", "::", "(?i)\\binterval\\s+'",
                "(?i)FILTER\\s*\\(", "(?i)jsonb", "(?i)EXTRACT\\s*\\(", "(?i)\\bctid\\b", "(?i)\\bTOP\\s*\\(",
                "(?i)\\bOUTPUT\\b", "(?i)OPENJSON", "(?i)SYSDATETIMEOFFSET", "(?i)DATEADD", "(?i)DATEDIFF",
                "(?i)UPDLOCK", "(?i)READPAST", "(?i)uniqueidentifier", "(?i)COUNT_BIG", "(?i)FETCH\\s+NEXT",
                "(?i)\\bOFFSET\\b");
        statements(MARIADB).forEach((name, statement) -> otherEngines.forEach(pattern ->
                assertThat(statement).as("MariaDB %s", name).doesNotContainPattern(pattern)));
    }

    @Test
    void noPostgresOrSqlServerStatementUsesMariaDbSyntax() {
        List<String> mariaDbOnly = List.of("(?i)UTC_TIMESTAMP", "(?i)JSON_TABLE", "(?i)TIMESTAMPDIFF",
                "(?i)MICROSECOND", "(?i)\\bDIV\\b", "`");
        for (OutboxDialect dialect : List.of(POSTGRES, SQL_SERVER)) {
            statements(dialect).forEach((name, statement) -> mariaDbOnly.forEach(pattern ->
                    assertThat(statement).as("%s %s", dialect.getClass().getSimpleName(), name)
                            .doesNotContainPattern(pattern)));
        }
    }

    // --- a real SQL parser ---------------------------------------------------------------------------------------

    /**
     * JSqlParser reads T-SQL's CTE {@code UPDATE ... OUTPUT inserted.*}, {@code TOP (?)}, {@code OPENJSON} and
     * {@code OFFSET ... FETCH}, but of the table hints it knows only {@code NOLOCK} and {@code INDEX}, not
     * {@code UPDLOCK, READPAST, ROWLOCK}. So the hint list is checked literally above and removed here before
     * parsing; everything else of every statement goes through the parser.
     */
    @Test
    void everySqlServerStatementParsesOnceItsLockHintsAreSetAside() {
        statements(SQL_SERVER).forEach((name, statement) -> {
            String parsed = name.startsWith("claim") ? withoutLockHints(statement) : statement;
            assertThatNoException().as("SQL Server %s", name).isThrownBy(() -> CCJSqlParserUtil.parse(parsed));
        });
    }

    @Test
    void everyPostgresStatementParses() {
        statements(POSTGRES).forEach((name, statement) -> assertThatNoException().as("PostgreSQL %s", name)
                .isThrownBy(() -> CCJSqlParserUtil.parse(statement)));
    }

    /**
     * JSqlParser reads MariaDB's multi-table {@code UPDATE ... JOIN}, {@code INTERVAL ? * 1000 MICROSECOND},
     * {@code DIV}, {@code DELETE ... ORDER BY ... LIMIT} and {@code FOR UPDATE SKIP LOCKED}, but not the table
     * function {@code JSON_TABLE(... COLUMNS (...))}. So the id list's join is checked literally above
     * ({@link #mariaDbPassesAWholeIdListAsOneJsonParameterJoinedOnThePrimaryKey}) and read as a plain table here.
     */
    @Test
    void everyMariaDbStatementParsesOnceItsJsonTableIsSetAside() {
        statements(MARIADB).forEach((name, statement) -> {
            String parsed = withoutJsonTable(statement);
            assertThatNoException().as("MariaDB %s", name).isThrownBy(() -> CCJSqlParserUtil.parse(parsed));
        });
    }

    @Test
    void theParserWouldRejectABrokenStatement() {
        // Proves the tests above can fail: a statement with a dropped parenthesis does not parse.
        String broken = withoutLockHints(SQL_SERVER.claim(false)).replace("TOP (?)", "TOP (?");
        String brokenMariaDb = MARIADB.stats().replace("SUM(status = 'PARKED')", "SUM(status = 'PARKED'");

        assertThat(catchThrowable(() -> CCJSqlParserUtil.parse(broken))).isNotNull();
        assertThat(catchThrowable(() -> CCJSqlParserUtil.parse(brokenMariaDb))).isNotNull();
        assertThat(catchThrowable(() -> CCJSqlParserUtil.parse(MARIADB.release())))
                .as("JSON_TABLE, which is why it is set aside").isNotNull();
    }

    // --- choosing the dialect ------------------------------------------------------------------------------------

    @Test
    void theDialectIsChosenFromTheDatabaseProductName() throws Exception {
        assertThat(OutboxDialect.of(Database.of(fakeConnection("PostgreSQL", new ArrayList<>()))))
                .isInstanceOf(PostgresOutboxDialect.class);
        assertThat(OutboxDialect.of(Database.of(fakeConnection("Microsoft SQL Server", new ArrayList<>()))))
                .isInstanceOf(SqlServerOutboxDialect.class);
        assertThat(OutboxDialect.of(Database.of(fakeConnection("MariaDB", new ArrayList<>()))))
                .isInstanceOf(MariaDbOutboxDialect.class);
        for (String product : List.of("H2", "MySQL")) {
            assertThatIllegalStateException()
                    .isThrownBy(() -> OutboxDialect.of(Database.of(fakeConnection(product, new ArrayList<>()))))
                    .withMessageContaining(product);
        }
    }

    // --- helpers -------------------------------------------------------------------------------------------------

    private static Map<String, String> statements(OutboxDialect dialect) {
        Map<String, String> statements = new LinkedHashMap<>();
        statements.put("insert", dialect.insert());
        statements.put("claim", dialect.claim(false));
        statements.put("claim (ordered)", dialect.claim(true));
        dialect.leaseClaimed().ifPresent(sql -> statements.put("leaseClaimed", sql));
        statements.put("markPublished", dialect.markPublished());
        statements.put("release", dialect.release());
        statements.put("recordFailure", dialect.recordFailure());
        statements.put("unpark", dialect.unpark());
        statements.put("deletePublished", dialect.deletePublished());
        statements.put("stats", dialect.stats());
        statements.put("countPublished", OutboxDialect.COUNT_PUBLISHED);
        dialect.markPublishedAndCount().ifPresent(sql -> statements.put("markPublishedAndCount", sql));
        return statements;
    }

    private static String withoutLockHints(String claim) {
        assertThat(occurrences(claim, LOCK_HINTS)).isEqualTo(1);
        return claim.replace(LOCK_HINTS, "");
    }

    /** The statement with MariaDB's id list read from a plain table of the same alias, where it has one. */
    private static String withoutJsonTable(String statement) {
        assertThat(occurrences(statement, "JSON_TABLE")).isEqualTo(occurrences(statement, JSON_IDS));
        return statement.replace(JSON_IDS, "JOIN json_ids ids");
    }

    /** The columns of a {@code SELECT} list, without {@code prefix}, in the order they come. */
    private static List<String> selectedColumns(String select, String prefix) {
        String list = select.substring(select.indexOf("SELECT") + "SELECT".length(), select.indexOf("FROM"));
        return Stream.of(list.split(","))
                .map(String::strip)
                .map(column -> column.startsWith(prefix) ? column.substring(prefix.length()) : column)
                .toList();
    }

    /** The JDBC placeholders of a statement: question marks outside literals, quoted names and comments. */
    static int placeholders(String sql) {
        int count = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '[') {
                char close = c == '[' ? ']' : c;
                i = sql.indexOf(close, i + 1);
                assertThat(i).as("unclosed %s in %s", c, sql).isNotNegative();
            } else if (sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
            } else if (sql.startsWith("/*", i)) {
                i = sql.indexOf("*/", i) + 1;
            } else if (c == '?') {
                count++;
            }
        }
        return count;
    }

    /** The 1-based position of the placeholder that directly follows the only match of {@code before}. */
    static int placeholderAt(String sql, String before) {
        Matcher matcher = Pattern.compile(before + "\\?").matcher(sql);
        assertThat(matcher.find()).as("'%s?' in %s", before, sql).isTrue();
        int end = matcher.end();
        assertThat(matcher.find()).as("a second '%s?' in %s", before, sql).isFalse();
        return placeholders(sql.substring(0, end));
    }

    /** How many columns a {@code SELECT} returns: its commas outside parentheses before its last {@code FROM}, + 1. */
    private static int columns(String select) {
        String list = select.substring(select.indexOf("SELECT") + "SELECT".length(), select.lastIndexOf("FROM"));
        int depth = 0;
        int columns = 1;
        for (char c : list.toCharArray()) {
            switch (c) {
                case '(' -> depth++;
                case ')' -> depth--;
                case ',' -> columns += depth == 0 ? 1 : 0;
                default -> { }
            }
        }
        return columns;
    }

    private static int occurrences(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }

    /** The column names after {@code keyword}, without {@code prefix} and casts, in the order they come. */
    private static List<String> returnedColumns(String sql, String keyword, String prefix) {
        String list = sql.substring(sql.indexOf(keyword) + keyword.length()).replace(";", "");
        return Stream.of(list.split(","))
                .map(String::strip)
                .map(column -> column.startsWith(prefix) ? column.substring(prefix.length()) : column)
                .map(column -> column.replaceAll("::\\w+$", ""))
                .toList();
    }

    /** A connection that only names its database and makes arrays, recording (type, elements) of each. */
    private static Connection fakeConnection(String productName, List<Object[]> arraysMade) {
        DatabaseMetaData metaData = (DatabaseMetaData) Proxy.newProxyInstance(getLoader(),
                new Class<?>[] {DatabaseMetaData.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getDatabaseProductName" -> productName;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (Connection) Proxy.newProxyInstance(getLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getMetaData" -> metaData;
                    case "createArrayOf" -> {
                        arraysMade.add(args);
                        yield Proxy.newProxyInstance(getLoader(), new Class<?>[] {Array.class}, (p, m, a) -> {
                            throw new UnsupportedOperationException(m.getName());
                        });
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static ClassLoader getLoader() {
        return OutboxDialectTest.class.getClassLoader();
    }
}
