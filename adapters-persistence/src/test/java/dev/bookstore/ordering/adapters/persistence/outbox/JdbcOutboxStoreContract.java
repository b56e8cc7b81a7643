package dev.bookstore.ordering.adapters.persistence.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import dev.bookstore.ordering.application.testing.OutboxStoreContract;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link JdbcOutboxStore} contract, run against every database dialect by one
 * subclass per database. A subclass provides a migrated, otherwise empty schema; every test starts from empty
 * tables. The outbox contract is the javadoc of its ports: its port-level tests are the
 * application's {@link OutboxStoreContract}, which the in-memory fake runs too; here is what only a database
 * shows (its clock, its transactions, concurrent claimers, column limits, the stored rows). Time passes for
 * the port-level tests by moving every stored timestamp back, which is what the database's clock moving on
 * looks like to every statement that compares with {@code now()}.
 *
 * <p>Ordered mode, as these tests pin it down: only the oldest <em>unpublished</em> message of an aggregate can
 * be claimed, and only while nobody holds its lease. A parked message is unpublished, so it keeps holding the
 * line: the later messages of its aggregate wait until an operator unparks it (and it is published) — per
 * aggregate order is never given up silently. Without ordered mode a parked message holds back nothing.
 */
abstract class JdbcOutboxStoreContract extends OutboxStoreContract<JdbcOutboxStore> {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private JdbcTemplate jdbc;
    private TransactionTemplate transaction;
    private JdbcOutboxStore store;
    private Outbox<JdbcOutboxStore> outbox;
    /** Occurrence times count up from here, so the rows of a test have a known order. */
    private Instant clock;

    /** A data source on a database migrated by this dialect's Flyway scripts, pooled for the concurrent test. */
    protected abstract DataSource dataSource();

    /** What {@link JdbcOutboxStore#database()} must report for this database. */
    protected abstract Database expectedDatabase();

    /** A query of one row and column: the database's current time, as {@link Database#instant} reads it. */
    protected abstract String databaseNowQuery();

    /**
     * How a connection tells whether its commits wait for the log's flush: a query of one row and column that reads
     * {@code durable} where they do, or null where the database has no per-session answer to ask for.
     */
    protected abstract String commitDurabilityQuery();

    /** A small connection pool, big enough for the concurrent claimers. */
    protected static HikariDataSource pool(String url, String username, String password) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(username);
        config.setPassword(password);
        config.setMaximumPoolSize(8);
        config.setPoolName("outbox-contract");
        return new HikariDataSource(config);
    }

    @Override
    protected Outbox<JdbcOutboxStore> outbox() {
        return outbox;
    }

    /** Moves every timestamp the relay compares with the database's now back by {@code duration}. */
    @Override
    protected void letTimePass(Duration duration) {
        List<Object[]> shifted = jdbc.query("""
                SELECT LOWER(CAST(id AS varchar(36))), created_at, next_attempt_at, claimed_until, published_at
                  FROM outbox_message""", (rs, n) -> new Object[] {
                earlier(rs, 2, duration), earlier(rs, 3, duration), earlier(rs, 4, duration), earlier(rs, 5, duration),
                rs.getString(1)});
        for (Object[] row : shifted) {
            jdbc.update("""
                    UPDATE outbox_message SET created_at = ?, next_attempt_at = ?, claimed_until = ?, published_at = ?
                     WHERE LOWER(CAST(id AS varchar(36))) = ?""", row);
        }
    }

    /** The time in the column, {@code duration} earlier, bound as the database binds times (a null typed). */
    private Object earlier(ResultSet rs, int column, Duration duration) throws SQLException {
        Instant timestamp = expectedDatabase().instant(rs, column);
        if (timestamp != null) {
            return expectedDatabase().timestamp(timestamp.minus(duration));
        }
        return new SqlParameterValue(expectedDatabase() == Database.MARIADB ? Types.TIMESTAMP
                : Types.TIMESTAMP_WITH_TIMEZONE, null);
    }

    @BeforeEach
    void startFromEmptyTables() {
        jdbc = new JdbcTemplate(dataSource());
        jdbc.update("DELETE FROM outbox_message");
        jdbc.update("UPDATE outbox_published_count SET published = 0");
        transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));
        store = new JdbcOutboxStore(dataSource(), JSON);
        outbox = new Outbox<>(store, store::append, new JdbcOutboxAdministration(dataSource(), JSON, store)::unpark);
        clock = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
    }

    // --- the relay's connections ---------------------------------------------------------------------------------

    @Test
    void theRelayClaimsAndMarksOnConnectionsThatRanItsSetupAndWhatItMarksIsSeenOnTheApisConnections()
            throws Exception {
        List<UUID> ids = appendMessages(3);
        HikariDataSource api = dataSource().unwrap(HikariDataSource.class);
        HikariConfig relayConfig = new HikariConfig();
        relayConfig.setJdbcUrl(api.getJdbcUrl());
        relayConfig.setUsername(api.getUsername());
        relayConfig.setPassword(api.getPassword());
        relayConfig.setMaximumPoolSize(2);
        relayConfig.setPoolName("outbox-contract-relay");
        store.relayConnectionSetup().ifPresent(relayConfig::setConnectionInitSql);
        try (HikariDataSource relayPool = new HikariDataSource(relayConfig)) {
            JdbcOutboxStore relay = new JdbcOutboxStore(relayPool, JSON);

            assertThat(ids(relay.claim("relay-a", 10, LEASE, false))).containsExactlyElementsOf(ids);
            assertThat(relay.markPublished("relay-a", ids.subList(0, 2))).isEqualTo(2);
            assertThat(relay.release("relay-a", ids.subList(2, 3))).isEqualTo(1);

            assertThat(store.count().published()).isEqualTo(2);
            assertThat(ids(store.claim("relay-b", 10, LEASE, false))).containsExactly(ids.get(2));
            if (commitDurabilityQuery() != null) {
                JdbcTemplate onRelay = new JdbcTemplate(relayPool);
                assertThat(onRelay.queryForObject(commitDurabilityQuery(), String.class))
                        .as("the relay's bookkeeping commits without waiting for the flush")
                        .isNotEqualTo("durable");
                assertThat(jdbc.queryForObject(commitDurabilityQuery(), String.class))
                        .as("the order and its outbox row commit durably").isEqualTo("durable");
            }
        }
    }

    // --- appending and claiming --------------------------------------------------------------------------------

    @Test
    void theStoreChoosesItsDialectFromTheConnection() {
        assertThat(store.database()).isEqualTo(expectedDatabase());
    }

    @Test
    void appendThenClaimReturnsEveryFieldIntact() {
        // Keys out of order, odd spacing, a nested object, an array, escapes and non-ASCII text: a jsonb
        // column may re-format all of that, but must not change what the document says.
        String payload = """
                { "orderId" : "0197a4f0-0000-7000-8000-000000000001",
                  "total": {"currency":"EUR", "amount": 12.50},
                  "lines": [ {"bookId": "978-3-16-148410-0", "quantity": 2} ],
                  "note": "Grüße, \\"quoted\\" \\u00e9" }""";
        Map<String, String> headers = Map.of("traceparent", TRACEPARENT, "tracestate", "congo=t61rcWkgMzE",
                "x-origin", "bücher");
        Instant occurredAt = clock.with(ChronoField.MICRO_OF_SECOND, 123_456);
        OutboxMessage appended = new OutboxMessage(UUID.randomUUID(), "order", "order-42",
                "bookstore.order-placed.v1", "bookstore.ordering", "order.placed", payload, headers, occurredAt, 0);

        store.append(appended);
        List<OutboxMessage> claimed = store.claim("relay-a", 10, LEASE, false);

        assertThat(claimed).hasSize(1);
        OutboxMessage message = claimed.get(0);
        assertThat(message.id()).isEqualTo(appended.id());
        assertThat(message.aggregateType()).isEqualTo("order");
        assertThat(message.aggregateId()).isEqualTo("order-42");
        assertThat(message.type()).isEqualTo("bookstore.order-placed.v1");
        assertThat(message.exchange()).isEqualTo("bookstore.ordering");
        assertThat(message.routingKey()).isEqualTo("order.placed");
        assertThat(JSON.readTree(message.payload())).isEqualTo(JSON.readTree(payload));
        assertThat(message.headers()).isEqualTo(headers).containsEntry("traceparent", TRACEPARENT);
        assertThat(message.occurredAt()).isEqualTo(occurredAt);
        assertThat(message.attempts()).isZero();
        assertThat(message.position()).as("given by the database").isPositive();
    }

    @Test
    void theDatabaseNumbersMessagesInTheOrderTheyAreInsertedAndTheClaimReturnsThemInThatOrder() {
        // Occurrence times that say the opposite: an instance with a clock running behind wrote the later ones.
        List<UUID> inserted = IntStream.range(0, 5)
                .mapToObj(i -> append(messageOccurredAt("order-" + i, clock.minus(Duration.ofSeconds(i)))))
                .toList();

        List<OutboxMessage> claimed = store.claim("relay-a", 10, LEASE, false);

        assertThat(ids(claimed)).containsExactlyElementsOf(inserted);
        assertThat(claimed).extracting(OutboxMessage::position).doesNotHaveDuplicates().isSorted();
        assertThat(ids(store.claim("relay-b", 10, LEASE, false))).isEmpty();
    }

    @Test
    void appendJoinsTheCallersTransactionSoARollbackLeavesNoMessage() {
        transaction.executeWithoutResult(status -> {
            store.append(message("order-1"));
            status.setRollbackOnly();
        });

        assertThat(store.claim("relay-a", 10, LEASE, false)).isEmpty();
        assertThat(store.count().pending()).isZero();
    }

    @Test
    void claimsByTwoOwnersNeverOverlapAndAThirdFindsNothing() {
        List<UUID> oldestFirst = appendMessages(6);

        List<UUID> first = ids(store.claim("relay-a", 4, LEASE, false));
        List<UUID> second = ids(store.claim("relay-b", 4, LEASE, false));
        List<OutboxMessage> third = store.claim("relay-c", 4, LEASE, false);

        assertThat(first).as("the oldest four, oldest first").containsExactlyElementsOf(oldestFirst.subList(0, 4));
        assertThat(second).as("what was left").containsExactlyElementsOf(oldestFirst.subList(4, 6));
        assertThat(third).isEmpty();
    }

    @Test
    void concurrentClaimersTogetherTakeEveryRowExactlyOnce() throws Exception {
        int rows = 400;
        int claimers = 4;
        int batchSize = 10;
        Set<UUID> appended = new HashSet<>(appendMessages(rows));
        ConcurrentLinkedQueue<UUID> taken = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Integer> batchSizes = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(claimers);
        ExecutorService pool = Executors.newFixedThreadPool(claimers);
        try {
            List<Future<Integer>> published = new ArrayList<>();
            for (int i = 0; i < claimers; i++) {
                String owner = "relay-" + i;
                published.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    int marked = 0;
                    while (true) {
                        List<OutboxMessage> batch = store.claim(owner, batchSize, LEASE, false);
                        if (batch.isEmpty()) {
                            return marked;
                        }
                        batchSizes.add(batch.size());
                        taken.addAll(ids(batch));
                        marked += store.markPublished(owner, ids(batch));
                    }
                }));
            }
            int markedByAll = 0;
            for (Future<Integer> claimer : published) {
                markedByAll += claimer.get(2, TimeUnit.MINUTES);
            }

            assertThat(batchSizes).allSatisfy(size -> assertThat(size).isBetween(1, batchSize));
            assertThat(taken).hasSize(rows).doesNotHaveDuplicates();
            assertThat(new HashSet<>(taken)).isEqualTo(appended);
            assertThat(markedByAll).isEqualTo(rows);
            assertThat(store.count()).isEqualTo(new OutboxStats(0, 0, rows, Duration.ZERO));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void markPublishedOnlyWorksForTheLeaseOwner() {
        List<UUID> ids = appendMessages(2);
        UUID leased = ids.get(0);
        UUID neverClaimed = ids.get(1);
        store.claim("relay-a", 1, LEASE, false);

        assertThat(store.markPublished("relay-b", List.of(leased))).isZero();
        assertThat(store.markPublished("relay-a", List.of(neverClaimed))).as("not leased by anyone").isZero();
        assertThat(row(leased).status()).isEqualTo("PENDING");

        assertThat(store.markPublished("relay-a", List.of(leased))).isEqualTo(1);
        Row published = row(leased);
        assertThat(published.status()).isEqualTo("PUBLISHED");
        assertThat(published.publishedAt()).isNotNull();
        assertThat(published.claimedBy()).isNull();
        assertThat(store.markPublished("relay-a", List.of(leased))).as("the lease ended with it").isZero();
        assertThat(store.count()).extracting(OutboxStats::pending, OutboxStats::published).containsExactly(1L, 1L);
    }

    @Test
    void recordFailuresCountsTheAttemptKeepsTheErrorAndHidesTheMessageUntilItsNextAttempt() {
        UUID id = appendMessages(1).get(0);
        store.claim("relay-a", 10, LEASE, false);
        // Longer than the column: DeliveryFailure cuts it to the 2,000 characters the column holds.
        String error = "nack from broker: queue 'orders' is full; " + "x".repeat(2500);
        Duration delay = Duration.ofSeconds(3);

        assertThat(store.recordFailures("relay-b", List.of(DeliveryFailure.retryAfter(id, "not mine", delay))))
                .as("relay-b holds no lease").isZero();
        Instant databaseBefore = databaseNow();
        assertThat(store.recordFailures("relay-a", List.of(DeliveryFailure.retryAfter(id, error, delay))))
                .isEqualTo(1);
        Instant databaseAfter = databaseNow();

        Row failed = row(id);
        assertThat(failed.attempts()).isEqualTo(1);
        assertThat(failed.lastError()).hasSize(DeliveryFailure.MAX_ERROR_LENGTH).startsWith("nack from broker");
        assertThat(failed.nextAttemptAt()).as("the delay after the database's now")
                .isBetween(databaseBefore.plus(delay), databaseAfter.plus(delay));
        assertThat(failed.status()).isEqualTo("PENDING");
        assertThat(failed.claimedBy()).as("the lease is freed").isNull();
        assertThat(store.claim("relay-b", 10, LEASE, false)).as("not due yet").isEmpty();

        List<OutboxMessage> retried = await().atLeast(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> store.claim("relay-b", 10, LEASE, false), claimed -> !claimed.isEmpty());
        assertThat(ids(retried)).containsExactly(id);
        assertThat(retried.get(0).attempts()).isEqualTo(1);
    }

    @Test
    void aRetryIsDueByTheDatabasesClockNotTheRelays() {
        List<UUID> ids = appendMessages(2);
        store.claim("relay-a", 10, LEASE, false);

        store.recordFailures("relay-a", List.of(DeliveryFailure.retryAfter(ids.get(0), "NACKED", Duration.ZERO),
                DeliveryFailure.retryAfter(ids.get(1), "NACKED", Duration.ofHours(1))));

        // No JVM instant travels to the database, so however far the relay's clock is off, a retry without delay
        // is due at once and one an hour away is not due.
        assertThat(ids(store.claim("relay-b", 10, LEASE, false))).containsExactly(ids.get(0));
        Instant databaseNow = databaseNow();
        assertThat(row(ids.get(1)).nextAttemptAt())
                .isBetween(databaseNow.plus(Duration.ofMinutes(59)), databaseNow.plus(Duration.ofHours(1)));
    }

    @Test
    void aParkedMessageIsNeverClaimedAndCountsAsParked() {
        List<UUID> ids = appendMessages(2);
        UUID parked = ids.get(0);
        store.claim("relay-a", 1, LEASE, false);

        assertThat(store.recordFailures("relay-a", List.of(DeliveryFailure.park(parked, "returned: no route"))))
                .isEqualTo(1);

        Row row = row(parked);
        assertThat(row.status()).isEqualTo("PARKED");
        assertThat(row.attempts()).isEqualTo(1);
        assertThat(row.lastError()).isEqualTo("returned: no route");
        assertThat(row.nextAttemptAt()).as("long due: only the status keeps it back").isBefore(Instant.now());
        assertThat(ids(store.claim("relay-b", 10, LEASE, false))).containsExactly(ids.get(1));
        assertThat(store.claim("relay-c", 10, LEASE, false)).isEmpty();
        assertThat(store.count()).extracting(OutboxStats::pending, OutboxStats::parked).containsExactly(1L, 1L);
    }

    // --- ordered mode --------------------------------------------------------------------------------------------

    // --- bulk outcomes and housekeeping --------------------------------------------------------------------------

    @Test
    void markPublishedAndReleaseTakeThreeThousandIdsInOneCall() {
        // More ids than SQL Server accepts parameters (2,100) in one statement.
        int count = 3_000;
        List<UUID> ids = transaction.execute(status -> appendMessages(count));

        assertThat(store.claim("relay-a", count, LEASE, false)).hasSize(count);
        assertThat(store.release("relay-a", ids)).isEqualTo(count);
        assertThat(store.claim("relay-b", count, LEASE, false)).hasSize(count);
        assertThat(store.markPublished("relay-b", ids)).isEqualTo(count);

        assertThat(store.count()).extracting(OutboxStats::pending, OutboxStats::published)
                .containsExactly(0L, (long) count);
    }

    @Test
    void deletePublishedOlderThanDeletesOnlyMessagesPublishedLongerAgoThanTheAgeAtMostLimitPerCall() {
        List<UUID> old = appendMessages(5);
        store.claim("relay-a", 5, LEASE, false);
        store.markPublished("relay-a", old);
        jdbc.update("UPDATE outbox_message SET published_at = ? WHERE published_at IS NOT NULL",
                expectedDatabase().timestamp(Instant.now().minus(Duration.ofDays(2))));
        List<UUID> recent = appendMessages(2);
        store.claim("relay-a", 2, LEASE, false);
        store.markPublished("relay-a", recent);
        UUID parked = appendMessages(1).get(0);
        store.claim("relay-a", 1, LEASE, false);
        store.recordFailures("relay-a", List.of(DeliveryFailure.park(parked, "nacked")));
        UUID pending = appendMessages(1).get(0);
        Duration age = Duration.ofDays(1);

        assertThat(store.deletePublishedOlderThan(age, 2)).isEqualTo(2);
        assertThat(store.deletePublishedOlderThan(age, 2)).isEqualTo(2);
        assertThat(store.deletePublishedOlderThan(age, 2)).isEqualTo(1);
        assertThat(store.deletePublishedOlderThan(age, 2)).isZero();

        assertThat(remainingIds()).containsExactlyInAnyOrder(recent.get(0), recent.get(1), parked, pending);
    }

    @Test
    void statsCountPendingParkedAndPublishedMessagesAndTheAgeOfTheOldestPending() {
        assertThat(store.count()).isEqualTo(new OutboxStats(0, 0, 0, Duration.ZERO));
        // The messages occurred about an hour ago (see the clock), but the database stored them just now.
        List<UUID> ids = appendMessages(5);
        store.claim("relay-a", 5, LEASE, false);
        store.markPublished("relay-a", List.of(ids.get(0)));
        store.recordFailures("relay-a", List.of(DeliveryFailure.park(ids.get(1), "nacked")));
        store.release("relay-a", List.of(ids.get(2), ids.get(3)));
        // ids.get(4) stays leased: leased messages are still pending.

        OutboxStats stats = store.count();

        assertThat(stats.pending()).isEqualTo(3);
        assertThat(stats.parked()).isEqualTo(1);
        assertThat(stats.published()).isEqualTo(1);
        assertThat(stats.oldestPendingAge()).as("ids.get(2) was stored moments ago")
                .isBetween(Duration.ZERO, Duration.ofMinutes(1));
    }

    @Test
    void thePendingAgeRunsFromWhenTheDatabaseStoredTheMessageWhateverItsOccurredAt() {
        append(messageOccurredAt("order-future", Instant.now().plus(Duration.ofDays(365))));

        // Measured from occurred_at, an age a year in the future would stay zero for good.
        Duration age = await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                .until(() -> store.count().oldestPendingAge(), grown -> grown.compareTo(Duration.ofMillis(500)) >= 0);
        assertThat(age).isLessThan(Duration.ofMinutes(1));

        append(messageOccurredAt("order-past", Instant.now().minus(Duration.ofDays(365))));

        assertThat(store.count().oldestPendingAge()).as("not a year").isLessThan(Duration.ofMinutes(1));
    }

    @Test
    void thePublishedCountKeepsEveryPublishedMessageAfterRetentionDeletedItAndCountsEachOnce() {
        List<UUID> ids = appendMessages(4);
        store.claim("relay-a", 2, LEASE, false);
        store.claim("relay-b", 2, LEASE, false);
        store.markPublished("relay-a", ids);
        store.markPublished("relay-b", ids);
        // marking again (the owner no longer holds the lease) changes nothing and counts nothing
        store.markPublished("relay-a", ids);
        jdbc.update("UPDATE outbox_message SET published_at = ? WHERE published_at IS NOT NULL",
                expectedDatabase().timestamp(Instant.now().minus(Duration.ofDays(2))));

        assertThat(store.deletePublishedOlderThan(Duration.ofDays(1), 10)).isEqualTo(4);

        assertThat(remainingIds()).isEmpty();
        assertThat(store.count()).isEqualTo(new OutboxStats(0, 0, 4, Duration.ZERO));
    }

    // --- helpers -------------------------------------------------------------------------------------------------

    /** A message of the given aggregate, occurring one second after the previous one of this test. */
    private OutboxMessage message(String aggregateId) {
        clock = clock.plusSeconds(1);
        return messageOccurredAt(aggregateId, clock);
    }

    private static OutboxMessage messageOccurredAt(String aggregateId, Instant occurredAt) {
        return new OutboxMessage(UUID.randomUUID(), "order", aggregateId, "bookstore.order-placed.v1",
                "bookstore.ordering", "order.placed", "{\"orderId\":\"" + aggregateId + "\"}",
                Map.of("traceparent", TRACEPARENT), occurredAt, 0);
    }

    private Instant databaseNow() {
        return jdbc.queryForObject(databaseNowQuery(), (rs, n) -> expectedDatabase().instant(rs, 1));
    }

    private UUID append(OutboxMessage message) {
        store.append(message);
        return message.id();
    }

    /** Appends messages of distinct aggregates; returns their ids, oldest first. */
    private List<UUID> appendMessages(int count) {
        return IntStream.range(0, count).mapToObj(i -> append(message("order-" + UUID.randomUUID()))).toList();
    }

    private static List<UUID> ids(Collection<OutboxMessage> messages) {
        return messages.stream().map(OutboxMessage::id).toList();
    }

    private List<UUID> remainingIds() {
        return jdbc.query("SELECT id FROM outbox_message", (rs, n) -> UUID.fromString(rs.getString(1)));
    }

    /** The bookkeeping columns of one row, read without the store. */
    private Row row(UUID id) {
        // Compared as lower-case text: PostgreSQL and SQL Server bind and print uuids differently.
        return jdbc.queryForObject("""
                SELECT status, attempts, last_error, next_attempt_at, claimed_by, published_at FROM outbox_message
                 WHERE LOWER(CAST(id AS varchar(36))) = ?""", (rs, n) -> new Row(
                rs.getString(1), rs.getInt(2), rs.getString(3), expectedDatabase().instant(rs, 4),
                rs.getString(5), expectedDatabase().instant(rs, 6)), id.toString());
    }

    private record Row(String status, int attempts, String lastError, Instant nextAttemptAt, String claimedBy,
                       Instant publishedAt) {
    }
}
