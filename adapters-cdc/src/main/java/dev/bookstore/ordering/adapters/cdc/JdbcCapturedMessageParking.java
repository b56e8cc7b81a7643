package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.capture.CapturedMessageParking;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalInt;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * A captured message's failures in its outbox row: each counted in {@code attempts} with {@code last_error}, and the
 * row parked as the polling relay parks one, so the administration API lists it, can requeue or discard it. The
 * publication carries inserts only, so these updates are never read back as changes.
 */
public final class JdbcCapturedMessageParking implements CapturedMessageParking {

    private final DataSource dataSource;

    public JdbcCapturedMessageParking(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public OptionalInt recordFailure(UUID messageId, String error) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement update = connection.prepareStatement("""
                UPDATE outbox_message SET attempts = attempts + 1, last_error = ?
                 WHERE id = ? AND status = 'PENDING'
                RETURNING attempts""")) {
            update.setString(1, lastError(error));
            update.setObject(2, messageId);
            try (ResultSet row = update.executeQuery()) {
                return row.next() ? OptionalInt.of(row.getInt(1)) : OptionalInt.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot count a failed attempt of outbox message " + messageId, e);
        }
    }

    @Override
    public void park(UUID messageId, int attempts, String error) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement update = connection.prepareStatement("""
                UPDATE outbox_message
                   SET status = 'PARKED', parked_at = now(), attempts = ?, last_error = ?,
                       claimed_by = NULL, claimed_until = NULL
                 WHERE id = ? AND status = 'PENDING'""")) {
            update.setInt(1, attempts);
            update.setString(2, lastError(error));
            update.setObject(3, messageId);
            update.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot park outbox message " + messageId, e);
        }
    }

    private static String lastError(String error) {
        return error.length() > DeliveryFailure.MAX_ERROR_LENGTH
                ? error.substring(0, DeliveryFailure.MAX_ERROR_LENGTH) : error;
    }
}
