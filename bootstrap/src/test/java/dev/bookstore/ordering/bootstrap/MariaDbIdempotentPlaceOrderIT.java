package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code POST /orders} with an {@code Idempotency-Key} ({@link IdempotentPlaceOrderContract}) against a real MariaDB,
 * where a key is recorded by an insert that waits for no lock ({@code innodb_lock_wait_timeout} 0 for that statement
 * alone), and an order's transaction is held open by a trigger waiting for a user lock ({@code GET_LOCK}).
 */
@ActiveProfiles("mariadb")
class MariaDbIdempotentPlaceOrderIT extends IdempotentPlaceOrderContract {

    private static final TestDatabase DATABASE = TestEngine.MARIADB.newDatabase();
    /** The user lock a test trigger makes an order insert wait for; user locks are the server's, hence the name. */
    private static final String HOLD = DATABASE.name() + "_order_insert_hold";

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
        return TestEngine.MARIADB;
    }

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }

    @Override
    protected int statementsOfAnOrder() {
        return 5; // the order, its lines as one batch, the Spring Modulith publication, the outbox row; COMMIT
    }

    /**
     * The customer's order inserts wait in a trigger for a user lock that a connection of the test holds; the trigger
     * lets go of the lock once it has it (a user lock is the session's, and the service's connection is pooled).
     */
    @Override
    protected OrderInsertHold holdOrderInsertsOf(String customer) throws SQLException {
        jdbc.execute("""
                CREATE TRIGGER orders_held BEFORE INSERT ON orders FOR EACH ROW
                BEGIN
                  IF NEW.customer_id = '%1$s' THEN
                    DO GET_LOCK('%2$s', 60);
                    DO RELEASE_LOCK('%2$s');
                  END IF;
                END""".formatted(customer, HOLD));
        Connection holder = DATABASE.connect();
        query(holder, "SELECT GET_LOCK(?, 0)");
        return new OrderInsertHold() {
            @Override
            public boolean holdsARequest() throws SQLException {
                try (Connection connection = DATABASE.connect(); PreparedStatement statement =
                        connection.prepareStatement("SELECT count(*) FROM information_schema.PROCESSLIST "
                                + "WHERE DB = DATABASE() AND STATE = 'User lock' AND INFO LIKE ?")) {
                    statement.setString(1, "DO GET_LOCK('" + HOLD + "'%");
                    try (ResultSet rs = statement.executeQuery()) {
                        rs.next();
                        return rs.getLong(1) == 1;
                    }
                }
            }

            @Override
            public void release() throws SQLException {
                query(holder, "SELECT RELEASE_LOCK(?)");
            }

            @Override
            public void close() throws SQLException {
                try {
                    holder.close();
                } finally {
                    jdbc.execute("DROP TRIGGER IF EXISTS orders_held");
                }
            }
        };
    }

    /** Runs a user-lock function of one parameter, the lock's name; it must answer 1 (taken, released). */
    private static void query(Connection connection, String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, HOLD);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                assertThat(rs.getInt(1)).as(sql).isEqualTo(1);
            }
        }
    }

    @Test
    void withAKeyPlacingAnOrderSendsOneInsertMoreThanWithoutAndNothingElse() {
        statements.start();
        HttpJson.Response response = http.postJson("/orders", twoBooks(customer), KEY_HEADER, "k-1");
        List<String> sent = statements.stop();

        assertThat(response.status()).isEqualTo(201);
        assertThat(sent).satisfiesExactly(
                sql -> assertThat(sql).startsWith("SET STATEMENT innodb_lock_wait_timeout = 0 FOR "
                        + "INSERT INTO idempotency_key "),
                order -> assertThat(order).startsWith("INSERT INTO orders "),
                lines -> assertThat(lines).startsWith("BATCH INSERT INTO order_line "),
                publication -> assertThat(publication).startsWithIgnoringCase("INSERT INTO event_publication "),
                outbox -> assertThat(outbox).startsWith("INSERT INTO outbox_message "),
                sql -> assertThat(sql).isEqualTo("COMMIT"));
        assertThat(jdbc.queryForObject("SELECT CAST(order_id AS varchar(36)) FROM idempotency_key "
                + "WHERE customer_id = ? AND idempotency_key = 'k-1'", String.class, customer))
                .isEqualTo(response.json().get("id").asString());
    }
}
