package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.capture.CapturedMessageRetention;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;

/** Deletes relayed rows by age in cdc mode; the publication carries inserts only, so no delete is ever streamed. */
public final class JdbcCapturedMessageRetention implements CapturedMessageRetention {

    private final DataSource dataSource;

    public JdbcCapturedMessageRetention(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public int deleteCapturedOlderThan(Duration age, int limit) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement delete = connection.prepareStatement("""
                DELETE FROM outbox_message
                 WHERE id IN (SELECT id FROM outbox_message
                               WHERE status <> 'PARKED' AND created_at < now() - ? * interval '1 millisecond'
                               ORDER BY position LIMIT ?)""")) {
            delete.setLong(1, age.toMillis());
            delete.setInt(2, limit);
            return delete.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot delete relayed outbox messages", e);
        }
    }
}
