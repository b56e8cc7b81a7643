package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * The in-process listener shares the API's connection pool; when requests hold every connection, its runs wait
 * for one instead of failing, on a real PostgreSQL. The listener's executor is paused while orders are placed, every
 * connection of the API's pool (2) is taken as a burst of requests takes them, and the executor resumes: the runs
 * find no connection for several of the pool's connection timeouts (250 ms). Once the connections are back, every
 * order is counted and no publication is left failed, with the resubmission (which would hide a failed run) off.
 */
class ListenerConnectionWaitIT {

    private static final TestDatabase DATABASE = TestPostgres.newDatabase();
    private static final int ORDERS = 20;
    private static final Duration CONNECTION_TIMEOUT = Duration.ofMillis(250);

    @AfterAll
    static void dropDatabase() {
        TestPostgres.drop(DATABASE);
    }

    @Test
    void whileRequestsHoldEveryConnectionTheListenerRunsWaitAndNoneFails() throws SQLException {
        UUID customer = UUID.randomUUID();
        try (ServiceInstance instance = ServiceInstance.start(DATABASE, "127.0.0.1", 1, "bookstore.listener-wait",
                Map.of("ordering.outbox.relay", "none",
                        "ordering.modulith.resubmit-interval", "1h",
                        "spring.datasource.hikari.maximum-pool-size", "2",
                        "spring.datasource.hikari.connection-timeout", String.valueOf(CONNECTION_TIMEOUT.toMillis())))) {
            ThreadPoolTaskExecutor listeners = instance.bean("applicationTaskExecutor", ThreadPoolTaskExecutor.class);
            DataSource api = instance.bean(DataSource.class);
            HttpJson asCustomer = instance.http.as(TestTokens.customer(customer));

            listeners.stop(); // paused: the runs of the orders below queue
            for (int i = 0; i < ORDERS; i++) {
                assertThat(asCustomer.postJson("/orders", HttpJson.orderJson(customer.toString(), 1)).status())
                        .isEqualTo(201);
            }
            assertThat(count("SELECT count(*) FROM customer_order_summary_event")).isZero();

            try (HeldConnections held = HeldConnections.all(api, 2)) {
                listeners.start();
                // four connection timeouts with no connection to be had: a run that gave up would have failed
                await().during(CONNECTION_TIMEOUT.multipliedBy(4)).atMost(Duration.ofSeconds(5))
                        .until(() -> count("SELECT count(*) FROM customer_order_summary_event") == 0);
            }

            await().atMost(Duration.ofSeconds(20))
                    .until(() -> count("SELECT count(*) FROM customer_order_summary_event") == ORDERS);
            await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM event_publication") == 0);
            assertThat(count("SELECT orders_placed FROM customer_order_summary WHERE customer_id = '" + customer
                    + "'")).isEqualTo(ORDERS);
        }
    }

    private static long count(String sql) {
        try (Connection connection = DATABASE.connect(); Statement statement = connection.createStatement();
             var rs = statement.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
