package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.application.outbox.admin.OutboxStatistics;
import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * The outbox statistics in cdc mode: the parked messages only, through their partial index. Rows are never marked
 * published there, so "pending" would be every row the retention keeps, and counting it scanned the whole table at
 * every refresh (in the API benchmark the statistics query took more of PostgreSQL than any write). The backlog of
 * this mode is in the WAL, which the slot's gauges measure; pending and its age are reported as 0.
 */
public final class JdbcCapturedOutboxStatistics implements OutboxStatistics {

    private final DataSource dataSource;

    public JdbcCapturedOutboxStatistics(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public OutboxStats count() {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("""
                     SELECT count(*), (SELECT coalesce(sum(published), 0) FROM outbox_published_count)
                       FROM outbox_message WHERE status = 'PARKED'""");
             ResultSet row = select.executeQuery()) {
            row.next();
            return new OutboxStats(0, row.getLong(1), row.getLong(2), Duration.ZERO, null);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot count the parked outbox messages", e);
        }
    }
}
