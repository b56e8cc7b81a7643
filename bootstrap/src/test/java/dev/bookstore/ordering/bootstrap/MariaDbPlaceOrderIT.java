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
 * The write path ({@link PlaceOrderContract}) against a real MariaDB, and how it goes there: no statement is written
 * behind (several in one text would need {@code allowMultiQueries}), the order's lines are one JDBC batch, and a
 * failure on the transaction's last insert leaves nothing of the order.
 */
@ActiveProfiles("mariadb")
class MariaDbPlaceOrderIT extends PlaceOrderContract {

    private static final TestDatabase DATABASE = TestEngine.MARIADB.newDatabase();
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
        return TestEngine.MARIADB;
    }

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }

    @Override
    protected long sessionsWaitingForARowLock() {
        return jdbc.queryForObject("SELECT count(*) FROM information_schema.INNODB_TRX t "
                + "JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id "
                + "WHERE p.DB = DATABASE() AND t.trx_state = 'LOCK WAIT'", Long.class);
    }

    @Test
    void placingAnOrderSendsOneInsertPerTableAndNothingElse() {
        statements.start();
        HttpJson.Response response = http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 3));
        List<String> sent = statements.stop();

        assertThat(response.status()).isEqualTo(201);
        // No read of the new order, no version update in the transaction: the order, its lines as one batch, the
        // Spring Modulith registry's publication of OrderPlaced (inserted as the event is published, before the
        // outbox row), the outbox row, each sent as it comes; then the COMMIT.
        assertThat(sent).satisfiesExactly(
                order -> assertThat(order).startsWith("INSERT INTO orders "),
                lines -> assertThat(lines).startsWith("BATCH INSERT INTO order_line "),
                publication -> assertThat(publication).startsWithIgnoringCase("INSERT INTO event_publication "),
                outbox -> assertThat(outbox).startsWith("INSERT INTO outbox_message "),
                sql -> assertThat(sql).isEqualTo("COMMIT"));
        String orderId = response.json().get("id").asString();
        assertThat(jdbc.queryForList("SELECT line_no FROM order_line WHERE order_id = ? ORDER BY line_no",
                Integer.class, id(orderId))).containsExactly(0, 1, 2);
        assertThat(jdbc.queryForObject("SELECT version FROM orders", Long.class)).isZero();
        assertThat(http.get("/orders/" + orderId).json().get("items")).hasSize(3);
    }

    @Test
    void anOrderOfTheMostLinesAllowedIsOneBatchOfLines() {
        statements.start();
        HttpJson.Response response = http.postJson("/orders",
                HttpJson.orderJson(UUID.randomUUID().toString(), Order.MAX_LINES));
        List<String> sent = statements.stop();

        assertThat(response.status()).isEqualTo(201);
        assertThat(sent.get(1)).startsWith("BATCH INSERT INTO order_line ");
        assertThat(sent).hasSize(5);
        assertThat(jdbc.queryForList("SELECT line_no FROM order_line WHERE order_id = ? ORDER BY line_no",
                Integer.class, id(response.json().get("id").asString())))
                .containsExactlyElementsOf(IntStream.range(0, Order.MAX_LINES).boxed().toList());
    }

    @Test
    void aFailureOnTheLastInsertLeavesNeitherOrderNorOutboxRow() {
        // MariaDB has no deferred trigger: this one fails the outbox row's insert, the transaction's last statement,
        // after the order, its lines and the publication were inserted. Nothing of it may remain, which proves the
        // writes share one transaction (InnoDB undoes only the failed statement by itself; the rest is the
        // service's rollback).
        jdbc.execute("""
                CREATE TRIGGER outbox_injected_failure BEFORE INSERT ON outbox_message FOR EACH ROW
                BEGIN
                  IF JSON_VALUE(NEW.payload, '$.customerId') = '%s' THEN
                    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure';
                  END IF;
                END""".formatted(POISONED_CUSTOMER));
        try {
            HttpJson.Response response = http.postJson("/orders",
                    HttpJson.orderJson(POISONED_CUSTOMER.toString(), 1));

            assertThat(response.status()).isEqualTo(500);
            assertThat(response.body()).doesNotContain("at dev.bookstore", "Exception");
            assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Long.class)).isZero();
            assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message", Long.class)).isZero();
            assertThat(jdbc.queryForObject("SELECT count(*) FROM order_line", Long.class)).isZero();
            assertThat(jdbc.queryForObject("SELECT count(*) FROM EVENT_PUBLICATION", Long.class)).isZero();
        } finally {
            jdbc.execute("DROP TRIGGER outbox_injected_failure");
        }
    }
}
