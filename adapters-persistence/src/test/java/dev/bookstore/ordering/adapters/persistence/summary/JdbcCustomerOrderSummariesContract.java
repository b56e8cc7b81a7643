package dev.bookstore.ordering.adapters.persistence.summary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.summary.CustomerOrderSummary;
import dev.bookstore.ordering.domain.order.CustomerId;
import java.time.Instant;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@link JdbcCustomerOrderSummaries} contract, run against every engine by one subclass per engine: an order
 * placed is counted once per event id, whichever order the events arrive in, and the newest order time is kept.
 * PostgreSQL records the id and counts in one statement, the other engines in two; the outcome is the same. A subclass
 * provides a migrated database shared by its tests; each test uses customers and event ids of its own.
 */
abstract class JdbcCustomerOrderSummariesContract {

    private JdbcCustomerOrderSummaries summaries;
    private JdbcTemplate jdbc;

    /** A data source on a database migrated by this engine's Flyway scripts. */
    protected abstract DataSource dataSource();

    /** The engine of {@link #dataSource()}, which binds the ids the test's own queries use. */
    protected abstract Database expectedDatabase();

    @BeforeEach
    void createStore() {
        summaries = new JdbcCustomerOrderSummaries(dataSource());
        jdbc = new JdbcTemplate(dataSource());
    }

    @Test
    void theDataSourceIsTheEngineTheSubclassNames() {
        assertThat(Database.of(dataSource())).isEqualTo(expectedDatabase());
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
                Long.class, expectedDatabase().id(first), expectedDatabase().id(second))).isEqualTo(2);
    }

    @Test
    void anEventIdRecordedBeforeIsNotCountedAgain() {
        CustomerId customer = new CustomerId(UUID.randomUUID());
        UUID event = UUID.randomUUID();
        assertThat(summaries.recordEvent(event)).isTrue();
        assertThat(summaries.recordEvent(event)).as("recorded once").isFalse();

        assertThat(summaries.addPlacedOnce(event, customer, Instant.now())).isFalse();

        assertThat(summaries.find(customer)).as("no row for the customer").isEmpty();
    }

    @Test
    void aCancellationCountsWithoutAnOrderTimeAndAnOrderPlacedAfterItSetsTheTime() {
        // A customer's first row can come from a cancellation, whose event overtook the placement's.
        CustomerId customer = new CustomerId(UUID.randomUUID());
        Instant placedAt = Instant.parse("2026-12-04T11:30:00.000001Z");

        summaries.addCancelled(customer);
        CustomerOrderSummary cancelledOnly = summaries.find(customer).orElseThrow();
        assertThat(cancelledOnly.ordersPlaced()).isZero();
        assertThat(cancelledOnly.ordersCancelled()).isEqualTo(1);
        assertThat(cancelledOnly.lastOrderAt()).isEmpty();

        assertThat(summaries.addPlacedOnce(UUID.randomUUID(), customer, placedAt)).isTrue();
        summaries.addCancelled(customer);

        CustomerOrderSummary summary = summaries.find(customer).orElseThrow();
        assertThat(summary.ordersPlaced()).isEqualTo(1);
        assertThat(summary.ordersCancelled()).isEqualTo(2);
        assertThat(summary.lastOrderAt()).as("not kept null by the row's null").contains(placedAt);
    }
}
