package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import dev.bookstore.ordering.adapters.web.ListenerBacklog;
import dev.bookstore.ordering.application.summary.GetCustomerOrderSummaryQuery;
import dev.bookstore.ordering.domain.order.CustomerId;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The in-process listeners' backlog bounds what the API takes, on a real PostgreSQL: with one listener thread held
 * by a table lock and room for one waiting run, the first order's run is running, the second's waits, and the
 * third order answers 503 with {@code Retry-After} and writes nothing; once the lock is gone, both accepted orders
 * are counted and orders are taken again.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("postgres")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class ListenerBacklogIT {

    private static final TestDatabase DATABASE = TestPostgres.newDatabase();
    private static final Duration WAIT = Duration.ofSeconds(30);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        WritePathService.register(registry, DATABASE);
        registry.add("spring.task.execution.pool.core-size", () -> "1");
        registry.add("ordering.modulith.max-queued-listener-runs", () -> "1");
    }

    @AfterAll
    static void dropDatabase() {
        TestPostgres.drop(DATABASE);
    }

    @LocalServerPort
    int port;

    @Autowired
    GetCustomerOrderSummaryQuery summaries;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void whileTheListenersBacklogIsFullAnOrderAnswers503AndWritesNothing() throws Exception {
        UUID customer = UUID.randomUUID();
        HttpJson asCustomer = new HttpJson(port).as(TestTokens.customer(customer));
        double refusedBefore = refused();

        try (Connection lock = dataSource.getConnection(); Statement statement = lock.createStatement()) {
            // the listener's first write waits for this lock: its only thread is busy until the rollback below
            lock.setAutoCommit(false);
            statement.execute("LOCK TABLE customer_order_summary_event IN EXCLUSIVE MODE");

            assertThat(place(asCustomer, customer).status()).isEqualTo(201);
            await().atMost(WAIT).until(() -> jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity "
                    + "WHERE datname = current_database() AND wait_event_type = 'Lock'", Long.class) == 1);
            assertThat(place(asCustomer, customer).status()).as("queued").isEqualTo(201);

            HttpJson.Response refused = place(asCustomer, customer);

            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.header("Retry-After")).isNotBlank();
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
            assertThat(refused.json().get("status").asInt()).isEqualTo(503);
            assertThat(refused() - refusedBefore).isEqualTo(1);
            assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Long.class)).isEqualTo(2);
            assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message", Long.class)).isEqualTo(2);
            lock.rollback();
        }

        await().atMost(WAIT).until(() -> summaries.summaryOf(new CustomerId(customer)).ordersPlaced() == 2);
        assertThat(place(asCustomer, customer).status()).isEqualTo(201);
        await().atMost(WAIT).until(() -> summaries.summaryOf(new CustomerId(customer)).ordersPlaced() == 3);
    }

    private static HttpJson.Response place(HttpJson as, UUID customer) {
        return as.postJson("/orders", HttpJson.orderJson(customer.toString(), 1));
    }

    private double refused() {
        return meters.get(ListenerBacklog.REFUSED).counter().count();
    }
}
