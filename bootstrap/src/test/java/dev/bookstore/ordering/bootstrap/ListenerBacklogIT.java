package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import dev.bookstore.ordering.application.port.in.GetCustomerOrderSummaryQuery;
import dev.bookstore.ordering.application.port.in.PlaceOrderCommand;
import dev.bookstore.ordering.application.port.in.PlaceOrderUseCase;
import dev.bookstore.ordering.bootstrap.modulith.IncompletePublicationsResubmission;
import dev.bookstore.ordering.bootstrap.modulith.ListenerBacklogFull;
import dev.bookstore.ordering.domain.order.CustomerId;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The in-process listeners' queue is bounded, on a real PostgreSQL: with one listener thread and room for one
 * waiting run, a listener held by a lock and five orders, one run is queued and three are dropped (counted in
 * {@value ListenerBacklogFull#NAME}); their publications stay incomplete, the orders are all written, and the
 * resubmission then gives every order exactly one effect.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("postgres")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class ListenerBacklogIT {

    private static final TestPostgres.Database DATABASE = TestPostgres.newDatabase();
    private static final Duration WAIT = Duration.ofSeconds(30);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        WritePathService.register(registry, DATABASE);
        registry.add("spring.task.execution.pool.core-size", () -> "1");
        registry.add("spring.task.execution.pool.max-size", () -> "1");
        registry.add("spring.task.execution.pool.queue-capacity", () -> "1");
        // the test resubmits itself (through the scheduled job's method), with no age limit
        registry.add("ordering.modulith.resubmit-interval", () -> "1h");
        registry.add("ordering.modulith.resubmit-older-than", () -> "0s");
    }

    @AfterAll
    static void dropDatabase() {
        TestPostgres.drop(DATABASE);
    }

    @Autowired
    PlaceOrderUseCase placeOrder;

    @Autowired
    GetCustomerOrderSummaryQuery summaries;

    @Autowired
    IncompletePublicationsResubmission resubmission;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aFullQueueDropsListenerRunsAndTheirPublicationsAreResubmittedWithOneEffectEach() throws Exception {
        UUID customer = UUID.randomUUID();
        double droppedBefore = dropped();

        try (Connection lock = dataSource.getConnection(); Statement statement = lock.createStatement()) {
            // the listener's first write waits for this lock: its only thread is busy until the rollback below
            lock.setAutoCommit(false);
            statement.execute("LOCK TABLE customer_order_summary_event IN EXCLUSIVE MODE");

            place(customer);
            await().atMost(WAIT).until(() -> jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity "
                    + "WHERE datname = current_database() AND wait_event_type = 'Lock'", Long.class) == 1);
            for (int i = 0; i < 4; i++) {
                place(customer);   // the first of these waits in the queue, the other three find it full
            }

            assertThat(dropped() - droppedBefore).isEqualTo(3);
            assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Long.class)).isEqualTo(5);
            lock.rollback();
        }

        // the running and the queued run complete; the dropped runs' publications are still there
        await().atMost(WAIT).until(() -> incompletePublications() == 3);
        assertThat(summaries.summaryOf(new CustomerId(customer)).ordersPlaced()).isEqualTo(2);

        // each round hands them over again; a run dropped again (the queue holds one) waits for the next round
        await().atMost(WAIT).until(() -> {
            resubmission.resubmit();
            return incompletePublications() == 0;
        });
        assertThat(summaries.summaryOf(new CustomerId(customer)).ordersPlaced()).isEqualTo(5);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM customer_order_summary_event", Long.class))
                .isEqualTo(5);
    }

    private void place(UUID customer) {
        placeOrder.placeOrder(PlaceOrderCommand.of(customer, "EUR",
                List.of(new PlaceOrderCommand.Item("b-1", 1, new BigDecimal("9.95")))));
    }

    private double dropped() {
        return meters.get(ListenerBacklogFull.NAME).counter().count();
    }

    private long incompletePublications() {
        return jdbc.queryForObject("SELECT count(*) FROM event_publication WHERE completion_date IS NULL", Long.class);
    }
}
