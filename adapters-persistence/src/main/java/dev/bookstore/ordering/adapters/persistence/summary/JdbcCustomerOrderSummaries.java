package dev.bookstore.ordering.adapters.persistence.summary;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.WriteBehind;
import dev.bookstore.ordering.application.summary.CustomerOrderSummaries;
import dev.bookstore.ordering.application.summary.CustomerOrderSummary;
import dev.bookstore.ordering.domain.order.CustomerId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * {@link CustomerOrderSummaries} on two tables. Every write joins the caller's transaction (the listener's) and
 * takes the writes waiting in it along ({@link WriteBehind}).
 */
@Component
public class JdbcCustomerOrderSummaries implements CustomerOrderSummaries {

    private final JdbcTemplate jdbc;
    private final WriteBehind writes;
    private final Database database;
    private final SummaryDialect sql;

    public JdbcCustomerOrderSummaries(DataSource dataSource) {
        this.database = Database.of(dataSource);
        this.jdbc = new JdbcTemplate(dataSource);
        this.writes = new WriteBehind(dataSource, database);
        this.sql = SummaryDialect.of(database);
    }

    @Override
    public boolean recordEvent(UUID eventId) {
        try {
            return writes.update(sql.recordEvent(), sql.recordEventParameters(eventId)) == 1;
        } catch (DuplicateKeyException recordedMeanwhile) {
            // should two transactions pass an insert-if-absent at once, the key decides: one counts
            return false;
        }
    }

    @Override
    public void addPlaced(CustomerId customer, Instant placedAt) {
        writes.update(sql.addPlaced(), sql.addPlacedParameters(customer.value(), placedAt));
    }

    /** One statement where the dialect has it ({@link SummaryDialect#addPlacedOnce}), else two. */
    @Override
    public boolean addPlacedOnce(UUID eventId, CustomerId customer, Instant placedAt) {
        if (sql.addPlacedOnce().isEmpty()) {
            return CustomerOrderSummaries.super.addPlacedOnce(eventId, customer, placedAt);
        }
        return writes.update(sql.addPlacedOnce().get(),
                sql.addPlacedOnceParameters(eventId, customer.value(), placedAt)) == 1;
    }

    @Override
    public void addCancelled(CustomerId customer) {
        writes.update(sql.addCancelled(), sql.addCancelledParameters(customer.value()));
    }

    @Override
    public Optional<CustomerOrderSummary> find(CustomerId customer) {
        writes.flush();
        List<CustomerOrderSummary> rows = jdbc.query(SummaryDialect.FIND, (rs, row) -> new CustomerOrderSummary(
                customer, rs.getLong(1), rs.getLong(2),
                Optional.ofNullable(database.instant(rs, 3))),
                database.id(customer.value()));
        return rows.stream().findFirst();
    }
}
