package dev.bookstore.ordering.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.MigratedDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/** The order adapter contract on a real MariaDB, in a database of its own made for this class. */
class MariaDbOrderPersistenceAdapterIT extends OrderPersistenceAdapterContract {

    @RegisterExtension
    static final MigratedDatabase DATABASE = new MigratedDatabase(TestEngine.MARIADB, "order-adapter", 4);

    @Override
    protected DataSource dataSource() {
        return DATABASE.dataSource();
    }

    @Override
    protected Database expectedDatabase() {
        return Database.MARIADB;
    }

    /**
     * The newest-first lists read the first rows of an index, as on PostgreSQL, instead of sorting the whole table:
     * their tie-break by id needs the id descending in the index too (InnoDB's primary key suffix is ascending).
     */
    @Test
    void theNewestOrdersAreReadFromAnIndexWithoutSortingTheTable() {
        JdbcTemplate jdbc = new JdbcTemplate(DATABASE.dataSource());
        String everyone = jdbc.queryForList("EXPLAIN FORMAT=JSON SELECT id FROM orders "
                + "ORDER BY placed_at DESC, id DESC OFFSET 0 ROWS FETCH NEXT 20 ROWS ONLY", String.class).get(0);
        String oneCustomer = jdbc.queryForList("EXPLAIN FORMAT=JSON SELECT id FROM orders WHERE customer_id = ? "
                        + "ORDER BY placed_at DESC, id DESC OFFSET 0 ROWS FETCH NEXT 20 ROWS ONLY", String.class,
                UUID.randomUUID().toString()).get(0);

        assertThat(everyone).contains("orders_by_placed_at").doesNotContain("filesort");
        assertThat(oneCustomer).contains("orders_by_customer").doesNotContain("filesort");
    }
}
