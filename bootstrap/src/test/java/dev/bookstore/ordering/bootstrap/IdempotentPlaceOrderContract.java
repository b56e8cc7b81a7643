package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.bootstrap.retention.RetentionJob;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /orders} with an {@code Idempotency-Key} on each engine (PostgreSQL, MariaDB), one subclass per engine
 * with a database of its own: a retry gets the first order and writes nothing, a different request with the key gets
 * 422, a request while the first is in flight gets 409 at once, expired keys are deleted in chunks. The relay is off
 * here so the rows stay to be counted. How an order's transaction is held open, and the statements a key costs, are
 * each engine's own (its subclass).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Import(IdempotentPlaceOrderContract.RecordStatements.class)
abstract class IdempotentPlaceOrderContract {

    static final String KEY_HEADER = "Idempotency-Key";
    private static final int PURGE_CHUNK = 2;
    /** A statement that writes, as the recorder notes it: a batch, or one run with a setting of its own (MariaDB). */
    private static final String WRITE = "^(BATCH )?(SET STATEMENT .* FOR )?(INSERT|UPDATE|DELETE|MERGE) .*";

    /** The engine of the subclass's database. */
    protected abstract TestEngine engine();

    /** The subclass's database, made for the class; the service runs on it. */
    protected abstract TestDatabase database();

    /**
     * Makes the insert into {@code orders} of {@code customer}'s orders wait until {@link OrderInsertHold#release()}
     * (or its close): the order's transaction, which has recorded the key, stays open meanwhile.
     */
    protected abstract OrderInsertHold holdOrderInsertsOf(String customer) throws SQLException;

    /** An order insert held by the test: see {@link #holdOrderInsertsOf}. Closing lets go and removes the hold. */
    interface OrderInsertHold extends AutoCloseable {

        /** Whether a request waits in the hold now. */
        boolean holdsARequest() throws SQLException;

        /** Lets the held requests go on. */
        void release() throws SQLException;

        @Override
        void close() throws SQLException;
    }

    /** How many statements an order without a key costs, its COMMIT included. */
    protected abstract int statementsOfAnOrder();

    /** The service's properties on {@code database}, for a subclass's {@code @DynamicPropertySource}. */
    static void register(DynamicPropertyRegistry registry, TestDatabase database) {
        WritePathService.register(registry, database);
        // The tests run the retention themselves; no job may be using the database when it is dropped.
        registry.add("ordering.idempotency.retention-interval", () -> "1h");
        registry.add("ordering.idempotency.retention-chunk", () -> String.valueOf(PURGE_CHUNK));
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    StatementRecorder statements;

    @Autowired
    @Qualifier("idempotencyKeyRetentionJob")
    RetentionJob retention;

    /** The statement recorder, by the class's {@code @Import} (no nested configuration for subclasses to inherit). */
    static class RecordStatements {

        @Bean
        static StatementRecorder statementRecorder() {
            return new StatementRecorder();
        }
    }

    HttpJson http;
    String customer;

    @BeforeEach
    void cleanTables() {
        http = new HttpJson(port);
        customer = UUID.randomUUID().toString();
        jdbc.update("DELETE FROM outbox_message");
        jdbc.update("DELETE FROM orders");
        jdbc.update("DELETE FROM idempotency_key");
    }

    @Test
    void aRetryWithTheSameKeyAndBodyAnswersTheFirstOrderAndWritesNothing() {
        String key = UUID.randomUUID().toString();
        HttpJson.Response first = http.postJson("/orders", twoBooks(customer), KEY_HEADER, key);
        assertThat(first.status()).isEqualTo(201);

        statements.start();
        HttpJson.Response retry = http.postJson("/orders", twoBooksWrittenDifferently(customer), KEY_HEADER, key);
        List<String> sent = statements.stop();

        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.header("Location")).isEqualTo(first.header("Location"))
                .isEqualTo("/orders/" + first.json().get("id").asString());
        assertThat(retry.json()).isEqualTo(first.json());
        // The one write is the key's insert, which finds the key taken and inserts nothing (PostgreSQL) or fails on
        // the duplicate key (MariaDB, the statement alone undone); the rest are reads.
        assertThat(sent).filteredOn(sql -> sql.matches(WRITE)).singleElement().asString().startsWith(keyInsert());
        assertThat(sent.get(0)).startsWith(keyInsert());
        assertRows(1, 1, 1);
    }

    @Test
    void withoutAKeyPlacingAnOrderTouchesNoKey() {
        statements.start();
        HttpJson.Response response = http.postJson("/orders", twoBooks(customer));
        List<String> sent = statements.stop();

        assertThat(response.status()).isEqualTo(201);
        assertThat(sent).noneMatch(sql -> sql.contains("idempotency_key")).hasSize(statementsOfAnOrder());
        assertThat(http.postJson("/orders", twoBooks(customer)).status()).isEqualTo(201);
        assertRows(2, 2, 0);
    }

    @Test
    void theSameKeyWithADifferentBodyIs422AndChangesNothing() {
        HttpJson.Response first = http.postJson("/orders", twoBooks(customer), KEY_HEADER, "k-1");

        HttpJson.Response different = http.postJson("/orders", HttpJson.orderJson(customer, 3), KEY_HEADER, "k-1");

        assertThat(different.status()).isEqualTo(422);
        assertThat(different.header("Content-Type")).startsWith("application/problem+json");
        assertThat(different.json().get("title").asString()).isEqualTo("Idempotency-Key reused");
        assertThat(different.json().get("instance").asString()).isEqualTo("/orders");
        assertRows(1, 1, 1);
        HttpJson.Response retry = http.postJson("/orders", twoBooks(customer), KEY_HEADER, "k-1");
        assertThat(retry.json().get("id")).isEqualTo(first.json().get("id"));
    }

    @Test
    void theSameKeyOfAnotherCustomerPlacesAnotherOrder() {
        String other = UUID.randomUUID().toString();

        HttpJson.Response mine = http.postJson("/orders", twoBooks(customer), KEY_HEADER, "k-1");
        HttpJson.Response theirs = http.postJson("/orders", twoBooks(other), KEY_HEADER, "k-1");

        assertThat(theirs.status()).isEqualTo(201);
        assertThat(theirs.json().get("id")).isNotEqualTo(mine.json().get("id"));
        assertRows(2, 2, 2);
    }

    @Test
    void aRequestWhileTheFirstWithTheSameKeyIsInFlightIs409AtOnce() throws Exception {
        // The first request's insert into orders waits for the test: its transaction, which has recorded the key,
        // stays open until the test lets go.
        try (OrderInsertHold hold = holdOrderInsertsOf(customer)) {
            CompletableFuture<HttpJson.Response> first = CompletableFuture.supplyAsync(() ->
                    http.postJson("/orders", twoBooks(customer), KEY_HEADER, "k-1"));
            await().atMost(Duration.ofSeconds(30)).until(hold::holdsARequest);

            HttpJson.Response second = http.postJson("/orders", twoBooks(customer), KEY_HEADER, "k-1");

            assertThat(second.status()).isEqualTo(409);
            assertThat(second.header("Content-Type")).startsWith("application/problem+json");
            assertThat(second.header("Retry-After")).isEqualTo("1");
            assertThat(second.json().get("title").asString()).isEqualTo("Request in progress");
            assertThat(first).as("the first request is still held: the second did not wait for it").isNotDone();
            assertThat(hold.holdsARequest()).isTrue();

            hold.release();
            HttpJson.Response firstAnswer = first.get(30, TimeUnit.SECONDS);
            assertThat(firstAnswer.status()).isEqualTo(201);

            HttpJson.Response retry = http.postJson("/orders", twoBooks(customer), KEY_HEADER, "k-1");
            assertThat(retry.status()).isEqualTo(201);
            assertThat(retry.json()).isEqualTo(firstAnswer.json());
            assertRows(1, 1, 1);
        }
    }

    static Stream<Arguments> invalidKeys() {
        return Stream.of(
                Arguments.of("empty", List.of(""), "must be 1 to 255 characters, got 0"),
                Arguments.of("256 characters", List.of("k".repeat(256)), "must be 1 to 255 characters, got 256"),
                Arguments.of("a space", List.of("two words"), "must be visible ASCII characters only (no spaces), "
                        + "found U+0020 at position 3"),
                Arguments.of("sent twice", List.of("k-1", "k-2"), "must be sent once, got 2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidKeys")
    void anInvalidKeyIs400ProblemDetailsNamingTheHeaderAndChangesNothing(String why, List<String> values,
                                                                         String message) {
        String[] headers = values.stream().flatMap(value -> Stream.of(KEY_HEADER, value)).toArray(String[]::new);

        HttpJson.Response response = http.postJson("/orders", twoBooks(customer), headers);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode error = response.json().get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo(KEY_HEADER);
        assertThat(error.get("message").asString()).isEqualTo(message);
        assertRows(0, 0, 0);
    }

    @Test
    void expiredKeysAreDeletedAtMostAChunkPerStatementAndTheirKeysPlaceNewOrders() {
        String expiredOrder = null;
        for (int i = 1; i <= 4; i++) {
            expiredOrder = http.postJson("/orders", twoBooks(customer), KEY_HEADER, "old-" + i)
                    .json().get("id").asString();
        }
        String recentOrder = http.postJson("/orders", twoBooks(customer), KEY_HEADER, "recent")
                .json().get("id").asString();
        jdbc.update("UPDATE idempotency_key SET created_at = %s WHERE idempotency_key LIKE 'old-%%'"
                .formatted(engine().plusMillis("created_at", -Duration.ofHours(25).toMillis())));

        statements.start();
        int deleted = retention.purge();
        List<String> sent = statements.stop();

        assertThat(deleted).isEqualTo(4);
        // Chunks of 2: the job goes on while a chunk comes back full, so 4 keys take 2 + 2 + 0.
        switch (engine()) {
            case POSTGRESQL -> assertThat(sent).hasSize(3).allSatisfy(sql ->
                    assertThat(sql).startsWith("DELETE FROM idempotency_key ").contains("LIMIT ?",
                            "FOR UPDATE SKIP LOCKED"));
            // MariaDB's DELETE skips no locked row: a chunk is locked by a SELECT that does, then deleted in a batch,
            // in a transaction of its own; the last, empty chunk deletes nothing.
            case MARIADB -> assertThat(sent).satisfiesExactly(
                    this::lockingAChunk, this::deletingTheChunk, this::commit,
                    this::lockingAChunk, this::deletingTheChunk, this::commit,
                    this::lockingAChunk, this::commit);
        }
        assertThat(jdbc.queryForList("SELECT idempotency_key FROM idempotency_key", String.class))
                .containsExactly("recent");

        assertThat(http.postJson("/orders", twoBooks(customer), KEY_HEADER, "recent").json().get("id").asString())
                .isEqualTo(recentOrder);
        HttpJson.Response again = http.postJson("/orders", twoBooks(customer), KEY_HEADER, "old-4");
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.json().get("id").asString()).isNotEqualTo(expiredOrder);
        assertRows(6, 6, 2);
    }

    private void lockingAChunk(String sql) {
        assertThat(sql).startsWith("SELECT customer_id, idempotency_key FROM idempotency_key ")
                .contains("LIMIT ?", "FOR UPDATE SKIP LOCKED");
    }

    private void deletingTheChunk(String sql) {
        assertThat(sql).startsWith("BATCH DELETE FROM idempotency_key ");
    }

    private void commit(String sql) {
        assertThat(sql).isEqualTo("COMMIT");
    }

    /** How the statement that records a key begins on this engine. */
    private String keyInsert() {
        return switch (engine()) {
            case POSTGRESQL -> "INSERT INTO idempotency_key ";
            case MARIADB -> "SET STATEMENT innodb_lock_wait_timeout = 0 FOR INSERT INTO idempotency_key ";
        };
    }

    void assertRows(long orders, long outboxMessages, long keys) {
        assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Long.class)).as("orders").isEqualTo(orders);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message", Long.class)).as("outbox messages")
                .isEqualTo(outboxMessages);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM idempotency_key", Long.class)).as("idempotency keys")
                .isEqualTo(keys);
    }

    static String twoBooks(String customer) {
        return HttpJson.orderJson(customer, 2);
    }

    /** {@link #twoBooks} as other JSON: keys in another order, other whitespace, prices with another scale. */
    private static String twoBooksWrittenDifferently(String customer) {
        return """
                {
                  "items": [
                    { "unitPrice": "9.950", "quantity": 2, "bookId": "978-0134494100" },
                    { "quantity": 2,   "bookId": "978-0134494101", "unitPrice": "9.95" }
                  ],
                  "currency" : "EUR",
                  "customerId" : "%s"
                }""".formatted(customer);
    }
}
