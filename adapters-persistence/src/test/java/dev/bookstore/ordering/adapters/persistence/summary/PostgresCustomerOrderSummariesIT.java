package dev.bookstore.ordering.adapters.persistence.summary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import dev.bookstore.ordering.application.summary.CustomerOrderSummary;
import dev.bookstore.ordering.domain.order.CustomerId;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The summary store on a real PostgreSQL, where an order placed is counted by one statement: once per event id,
 * whichever order the events arrive in, and the newest order time kept.
 */
class PostgresCustomerOrderSummariesIT {

    private static TestDatabase database;
    private static JdbcCustomerOrderSummaries summaries;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void migrate() {
        database = TestPostgres.newMigratedDatabase();
        DriverManagerDataSource dataSource =
                new DriverManagerDataSource(database.url(), database.username(), database.password());
        summaries = new JdbcCustomerOrderSummaries(dataSource);
        jdbc = new JdbcTemplate(dataSource);
    }

    @AfterAll
    static void drop() {
        if (database != null) {
            TestPostgres.drop(database);
        }
    }

    @Test
    void anOrderPlacedCountsOncePerEventIdAndKeepsTheNewestOrderTime() {
        CustomerId customer = new CustomerId(UUID.randomUUID());
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        Instant earlier = Instant.parse("2026-12-04T10:00:00.123456Z");
        Instant later = earlier.plusSeconds(60);

        assertThat(summaries.addPlacedOnce(first, customer, later)).as("new customer").isTrue();
        assertThat(summaries.addPlacedOnce(first, customer, later)).as("the same event again").isFalse();
        assertThat(summaries.addPlacedOnce(second, customer, earlier)).as("an older order, later").isTrue();
        assertThat(summaries.addPlacedOnce(second, customer, earlier)).isFalse();

        CustomerOrderSummary summary = summaries.find(customer).orElseThrow();
        assertThat(summary.ordersPlaced()).isEqualTo(2);
        assertThat(summary.lastOrderAt()).contains(later);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM customer_order_summary_event WHERE event_id IN (?, ?)",
                Long.class, first, second)).isEqualTo(2);
    }

    @Test
    void anEventIdRecordedBeforeIsNotCountedAgainByTheOneStatement() {
        CustomerId customer = new CustomerId(UUID.randomUUID());
        UUID event = UUID.randomUUID();
        assertThat(summaries.recordEvent(event)).isTrue();

        assertThat(summaries.addPlacedOnce(event, customer, Instant.now())).isFalse();

        assertThat(summaries.find(customer)).as("no row for the customer").isEmpty();
    }
}
