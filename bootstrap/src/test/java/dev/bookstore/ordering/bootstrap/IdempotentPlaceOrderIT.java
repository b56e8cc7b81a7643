package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code POST /orders} with an {@code Idempotency-Key} ({@link IdempotentPlaceOrderContract}) against a real
 * PostgreSQL, where a key is recorded under a transaction-level advisory lock in the statement text written behind
 * with the order's, and an order's transaction is held open by a PL/pgSQL trigger waiting for an advisory lock.
 */
@ActiveProfiles("postgres")
class IdempotentPlaceOrderIT extends IdempotentPlaceOrderContract {

    private static final TestDatabase DATABASE = TestEngine.POSTGRESQL.newDatabase();
    /** The advisory lock a test trigger makes an order insert wait for, to hold its transaction open. */
    private static final long HOLD = 4_242_001L;

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
    protected int statementsOfAnOrder() {
        return 3; // the Spring Modulith publication; the order with its lines and the outbox row written behind; COMMIT
    }

    /** The customer's order inserts wait in a trigger for an advisory lock that a connection of the test holds. */
    @Override
    protected OrderInsertHold holdOrderInsertsOf(String customer) throws SQLException {
        jdbc.execute("""
                CREATE OR REPLACE FUNCTION hold_order_insert() RETURNS trigger AS $$
                BEGIN
                  PERFORM pg_advisory_xact_lock(%d);
                  RETURN NEW;
                END $$ LANGUAGE plpgsql""".formatted(HOLD));
        jdbc.execute("CREATE TRIGGER orders_held BEFORE INSERT ON orders FOR EACH ROW WHEN (NEW.customer_id = '"
                + customer + "') EXECUTE FUNCTION hold_order_insert()");
        Connection holder = DATABASE.connect();
        Statement hold = holder.createStatement();
        hold.execute("SELECT pg_advisory_lock(" + HOLD + ")");
        return new OrderInsertHold() {
            @Override
            public boolean holdsARequest() throws SQLException {
                try (Connection connection = DATABASE.connect(); Statement statement = connection.createStatement();
                     ResultSet rs = statement.executeQuery("SELECT count(*) FROM pg_locks "
                             + "WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid = " + HOLD)) {
                    rs.next();
                    return rs.getLong(1) == 1;
                }
            }

            @Override
            public void release() throws SQLException {
                hold.execute("SELECT pg_advisory_unlock(" + HOLD + ")");
            }

            @Override
            public void close() throws SQLException {
                try {
                    holder.close();
                } finally {
                    jdbc.execute("DROP TRIGGER IF EXISTS orders_held ON orders");
                }
            }
        };
    }

    /** PostgreSQL only: the key's insert under an advisory lock, and the order's inserts written behind. */
    @Test
    void withAKeyPlacingAnOrderSendsOneInsertMoreThanWithoutAndNothingElse() {
        statements.start();
        HttpJson.Response response = http.postJson("/orders", twoBooks(customer), KEY_HEADER, "k-1");
        List<String> sent = statements.stop();

        assertThat(response.status()).isEqualTo(201);
        assertThat(sent).satisfiesExactly(
                sql -> assertThat(sql).startsWith("INSERT INTO idempotency_key ")
                        .contains("pg_try_advisory_xact_lock(?)", "ON CONFLICT"),
                publication -> assertThat(publication).startsWithIgnoringCase("INSERT INTO event_publication "),
                sql -> assertThat(sql.split("; ")).satisfiesExactly(
                        order -> assertThat(order).startsWith("WITH placed AS (INSERT INTO orders ")
                                .contains(") INSERT INTO order_line "),
                        outbox -> assertThat(outbox).startsWith("INSERT INTO outbox_message ")),
                sql -> assertThat(sql).isEqualTo("COMMIT"));
        assertThat(jdbc.queryForObject("SELECT order_id::text FROM idempotency_key WHERE customer_id = ?::uuid "
                + "AND idempotency_key = 'k-1'", String.class, customer))
                .isEqualTo(response.json().get("id").asString());
    }
}
