package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import dev.bookstore.ordering.application.summary.SummarizeOrderEventsUseCase;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import dev.bookstore.ordering.domain.shared.Money;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The customer order summary with several instances on one PostgreSQL: a publication left incomplete by an
 * instance that stopped is completed by the next instance's start, and the same event handed to both instances at
 * once still counts once.
 */
class CustomerOrderSummaryInstancesIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final TestDatabase DATABASE = TestPostgres.newDatabase();
    private static final Map<String, String> SETTINGS = Map.of(
            "ordering.outbox.relay", "none",
            "ordering.outbox.retention-interval", "1h",
            "ordering.modulith.resubmit-interval", "1h");

    private static ServiceInstance first;
    private static ServiceInstance second;
    private static final UUID CUSTOMER = UUID.randomUUID();

    @BeforeAll
    static void anOrderWhoseListenerFailedOnAnInstanceThatStopped() throws SQLException {
        ServiceInstance stopped = start();
        try {
            execute("""
                    CREATE FUNCTION summary_fails() RETURNS trigger AS $$
                    BEGIN
                      RAISE EXCEPTION 'test: the summary listener fails';
                    END $$ LANGUAGE plpgsql""");
            execute("CREATE TRIGGER summary_fails BEFORE INSERT ON customer_order_summary_event "
                    + "FOR EACH ROW EXECUTE FUNCTION summary_fails()");
            assertThat(stopped.http.postJson("/orders", HttpJson.orderJson(CUSTOMER.toString(), 1)).status())
                    .isEqualTo(201);
            await().atMost(WAIT).until(() -> count("SELECT count(*) FROM event_publication "
                    + "WHERE completion_date IS NULL AND status = 'FAILED'") == 1);
        } finally {
            stopped.close();
        }
        execute("DROP TRIGGER summary_fails ON customer_order_summary_event");
        assertThat(count("SELECT count(*) FROM customer_order_summary")).isZero();
        first = start();
        second = start();
    }

    @AfterAll
    static void stop() {
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
        TestPostgres.drop(DATABASE);
    }

    @Test
    void anIncompletePublicationIsCompletedOnStartAndCountsOnce() {
        await().atMost(WAIT).until(() -> incomplete() == 0);

        JsonNode summary = first.http.as(TestTokens.customer(CUSTOMER)).get("/customers/me/order-summary").json();
        assertThat(summary.get("ordersPlaced").asLong()).isOne();
        assertThat(second.http.get("/customers/" + CUSTOMER + "/order-summary").json()).isEqualTo(summary);
        assertThat(count("SELECT count(*) FROM customer_order_summary_event")).isOne();
    }

    @Test
    void theSameEventPublishedOnBothInstancesCountsOnce() throws Exception {
        await().atMost(WAIT).until(() -> incomplete() == 0);
        long placedBefore = placed();
        OrderPlaced event = event();

        CyclicBarrier together = new CyclicBarrier(2);
        List<CompletableFuture<Void>> publishing = List.of(first, second).stream()
                .map(instance -> CompletableFuture.runAsync(() -> {
                    meet(together);
                    new TransactionTemplate(instance.bean(PlatformTransactionManager.class))
                            .executeWithoutResult(status -> instance.events().publishEvent(event));
                })).toList();
        for (CompletableFuture<Void> publication : publishing) {
            publication.get(30, TimeUnit.SECONDS);
        }

        // Each instance stored a publication and ran its listener; both completed, one counted.
        await().atMost(WAIT).until(() -> incomplete() == 0);
        assertThat(placed()).isEqualTo(placedBefore + 1);
        assertThat(count("SELECT count(*) FROM customer_order_summary_event WHERE event_id = '"
                + event.eventId() + "'")).isOne();
    }

    @Test
    void theSameEventCountedConcurrentlyByBothInstancesCountsOnce() throws Exception {
        long placedBefore = placed();
        OrderPlaced event = event();

        CyclicBarrier together = new CyclicBarrier(2);
        List<CompletableFuture<Void>> counting = List.of(first, second).stream()
                .map(instance -> CompletableFuture.runAsync(() -> {
                    meet(together);
                    for (int i = 0; i < 10; i++) {
                        instance.bean(SummarizeOrderEventsUseCase.class).orderPlaced(event);
                    }
                })).toList();
        for (CompletableFuture<Void> run : counting) {
            run.get(30, TimeUnit.SECONDS);
        }

        assertThat(placed()).isEqualTo(placedBefore + 1);
    }

    /** A new event of the customer; its order need not exist, an {@code OrderPlaced} carries all it counts. */
    private static OrderPlaced event() {
        return new OrderPlaced(UUID.randomUUID(), Instant.parse("2025-03-14T09:26:53.589Z"),
                new OrderId(UUID.randomUUID()), new CustomerId(CUSTOMER), Money.of("9.95", "EUR"), List.of());
    }

    private static void meet(CyclicBarrier barrier) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static ServiceInstance start() {
        return ServiceInstance.start(DATABASE, "127.0.0.1", 1, "bookstore.summary", SETTINGS);
    }

    private static long placed() {
        return count("SELECT orders_placed FROM customer_order_summary WHERE customer_id = '" + CUSTOMER + "'");
    }

    private static long incomplete() {
        return count("SELECT count(*) FROM event_publication WHERE completion_date IS NULL");
    }

    private static long count(String sql) {
        try (Connection connection = DATABASE.connect(); Statement statement = connection.createStatement();
             var rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection connection = DATABASE.connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
