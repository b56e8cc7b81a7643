package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.domain.order.Order;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The write path ({@link PlaceOrderContract}) against a real PostgreSQL, and what only PostgreSQL does: the order, its
 * lines and the outbox row written behind as one statement text, a failure at commit from a deferred trigger.
 */
@ActiveProfiles("postgres")
class PlaceOrderIT extends PlaceOrderContract {

    private static final TestDatabase DATABASE = TestEngine.POSTGRESQL.newDatabase();
    private static final UUID POISONED_CUSTOMER = UUID.fromString("00000000-0000-7000-8000-00000000dead");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        register(registry, DATABASE);
    }

    @AfterAll
    static void dropDatabase() {
        DATABASE.drop();
    }

    @Override
    protected TestEngine engine() {
        return TestEngine.POSTGRESQL;
    }

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }

    @Override
    protected long sessionsWaitingForARowLock() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                + "AND wait_event_type = 'Lock'", Long.class);
    }

    /** PostgreSQL only: the order's and the outbox row's inserts written behind, as one statement text. */
    @Test
    void placingAnOrderSendsOneInsertPerTableAndNothingElse() {
        statements.start();
        HttpJson.Response response = http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 3));
        List<String> sent = statements.stop();

        assertThat(response.status()).isEqualTo(201);
        // No read of the new order, no version update, no NOTIFY in the transaction; the order and its lines are one
        // statement (a row of values per line). The Spring Modulith registry's publication of OrderPlaced (one row per
        // in-process listener, here the customer order summary's) belongs to the order's transaction, inserted by
        // Spring Modulith's repository when the event is published: the listener runs after the commit, elsewhere.
        // The order's and the outbox row's inserts are written behind: one statement text, one round trip, then the
        // COMMIT.
        assertThat(sent).satisfiesExactly(
                publication -> assertThat(publication).startsWithIgnoringCase("INSERT INTO event_publication "),
                sql -> assertThat(sql.split("; ")).satisfiesExactly(
                        order -> assertThat(order).startsWith("WITH placed AS (INSERT INTO orders ")
                                .contains(") INSERT INTO order_line ")
                                .endsWith(" (?, ?, ?, ?, ?), (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)"),
                        outbox -> assertThat(outbox).startsWith("INSERT INTO outbox_message ")),
                sql -> assertThat(sql).isEqualTo("COMMIT"));
        String orderId = response.json().get("id").asString();
        assertThat(jdbc.queryForList("SELECT line_no FROM order_line WHERE order_id = ? ORDER BY line_no",
                Integer.class, id(orderId))).containsExactly(0, 1, 2);
        assertThat(jdbc.queryForObject("SELECT version FROM orders", Long.class)).isZero();
        assertThat(http.get("/orders/" + orderId).json().get("items")).hasSize(3);
    }

    /** PostgreSQL only: the order and its lines as one statement. */
    @Test
    void anOrderOfTheMostLinesAllowedIsOneStatementToo() {
        statements.start();
        HttpJson.Response response = http.postJson("/orders",
                HttpJson.orderJson(UUID.randomUUID().toString(), Order.MAX_LINES));
        List<String> sent = statements.stop();

        assertThat(response.status()).isEqualTo(201);
        assertThat(sent.get(1)).startsWith("WITH placed AS (INSERT INTO orders ");
        assertThat(sent).hasSize(3);
        assertThat(jdbc.queryForList("SELECT line_no FROM order_line WHERE order_id = ? ORDER BY line_no",
                Integer.class, id(response.json().get("id").asString())))
                .containsExactlyElementsOf(IntStream.range(0, Order.MAX_LINES).boxed().toList());
    }

    /** PostgreSQL only: a deferred constraint trigger, in PL/pgSQL. */
    @Test
    void aFailureAtCommitLeavesNeitherOrderNorOutboxRow() {
        // A deferred constraint trigger fails at commit, after the order, its lines and the outbox row were all
        // inserted: nothing of it may remain, which proves the writes share one transaction.
        jdbc.execute("""
                CREATE OR REPLACE FUNCTION fail_for_poisoned_customer() RETURNS trigger AS $$
                BEGIN
                  IF NEW.customer_id = '%s' THEN RAISE EXCEPTION 'injected failure'; END IF;
                  RETURN NEW;
                END $$ LANGUAGE plpgsql""".formatted(POISONED_CUSTOMER));
        jdbc.execute("CREATE CONSTRAINT TRIGGER orders_injected_failure AFTER INSERT ON orders "
                + "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION fail_for_poisoned_customer()");
        try {
            HttpJson.Response response = http.postJson("/orders",
                    HttpJson.orderJson(POISONED_CUSTOMER.toString(), 1));

            assertThat(response.status()).isEqualTo(500);
            assertThat(response.body()).doesNotContain("at dev.bookstore", "Exception");
            assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Long.class)).isZero();
            assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message", Long.class)).isZero();
            assertThat(jdbc.queryForObject("SELECT count(*) FROM order_line", Long.class)).isZero();
        } finally {
            jdbc.execute("DROP TRIGGER orders_injected_failure ON orders");
        }
    }
}
