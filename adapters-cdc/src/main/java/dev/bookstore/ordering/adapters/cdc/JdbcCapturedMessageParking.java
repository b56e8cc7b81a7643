package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.capture.CapturedMessageParking;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Parks a captured message in its outbox row, as the polling relay parks one: the administration API lists it,
 * can requeue or discard it. The publication carries inserts only, so this update is never read back as a change.
 */
public final class JdbcCapturedMessageParking implements CapturedMessageParking {

    private final DataSource dataSource;

    public JdbcCapturedMessageParking(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public void park(UUID messageId, int attempts, String error) {
        String lastError = error.length() > DeliveryFailure.MAX_ERROR_LENGTH
                ? error.substring(0, DeliveryFailure.MAX_ERROR_LENGTH) : error;
        try (Connection connection = dataSource.getConnection(); PreparedStatement update = connection.prepareStatement("""
                UPDATE outbox_message
                   SET status = 'PARKED', parked_at = now(), attempts = attempts + ?, last_error = ?,
                       claimed_by = NULL, claimed_until = NULL
                 WHERE id = ? AND status = 'PENDING'""")) {
            update.setInt(1, attempts);
            update.setString(2, lastError);
            update.setObject(3, messageId);
            update.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot park outbox message " + messageId, e);
        }
    }
}
