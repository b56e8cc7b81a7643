package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.capture.CapturedMessageParking;
import dev.bookstore.ordering.application.outbox.capture.UnreadableChange;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.OptionalInt;
import java.util.UUID;
import javax.sql.DataSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * A captured message's failures in its outbox row: each counted in {@code attempts} with {@code last_error}, and the
 * row parked as the polling relay parks one, so the administration API lists it, can requeue or discard it. Every
 * statement names the row version that was captured ({@code id} and {@code position}): a row an operator inserted
 * again is another version and never touched here. A message whose row is gone is inserted again as a parked row,
 * from what was captured. The CDC relay skips inserted rows that are parked (the {@code status} header), and the
 * publication carries inserts only, so the updates are never read back as changes.
 */
public final class JdbcCapturedMessageParking implements CapturedMessageParking {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final DataSource dataSource;

    public JdbcCapturedMessageParking(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public OptionalInt recordFailure(OutboxMessage message, String error) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement update = connection.prepareStatement("""
                UPDATE outbox_message SET attempts = attempts + 1, last_error = ?
                 WHERE id = ? AND position = ? AND status = 'PENDING'
                RETURNING attempts""")) {
            update.setString(1, lastError(error));
            update.setObject(2, message.id());
            update.setLong(3, message.position());
            try (ResultSet row = update.executeQuery()) {
                return row.next() ? OptionalInt.of(row.getInt(1)) : OptionalInt.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot count a failed attempt of outbox message " + message.id(), e);
        }
    }

    @Override
    public Parked park(OutboxMessage message, int attempts, String error) {
        try (Connection connection = dataSource.getConnection()) {
            if (markParked(connection, message.id(), message.position(), attempts, lastError(error))) {
                return Parked.ROW;
            }
            if (insertParked(connection, message, attempts, lastError(error))) {
                return Parked.STORED_AGAIN;
            }
            // A row with this id exists: this very row, parked meanwhile by another reader, or a newer one.
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT position FROM outbox_message WHERE id = ?")) {
                select.setObject(1, message.id());
                try (ResultSet row = select.executeQuery()) {
                    return row.next() && row.getLong(1) == message.position() ? Parked.ROW : Parked.LEFT_TO_NEWER_ROW;
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot park outbox message " + message.id(), e);
        }
    }

    @Override
    public void parkUnreadable(UnreadableChange change) {
        String error = lastError("unreadable change: " + change.error() + "; as read: " + change.raw());
        try (Connection connection = dataSource.getConnection()) {
            if (change.id() != null && markParked(connection, change.id(), change.position(), 1, error)) {
                return;
            }
            try (PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                                occurred_at, status, attempts, last_error, parked_at)
                    VALUES (?, 'unreadable', ?, 'unreadable', '', '', to_jsonb(?::text), now(), 'PARKED', 1, ?, now())
                    ON CONFLICT (id) DO NOTHING""")) {
                // A row with its id and another position is a newer version and is read on its own.
                insert.setObject(1, change.id() == null ? UUID.randomUUID() : change.id());
                insert.setString(2, Long.toString(change.position()));
                insert.setString(3, change.raw());
                insert.setString(4, error);
                insert.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot park an unreadable outbox change: " + change.raw(), e);
        }
    }

    private static boolean markParked(Connection connection, UUID id, long position, int attempts, String error)
            throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("""
                UPDATE outbox_message
                   SET status = 'PARKED', parked_at = now(), attempts = ?, last_error = ?,
                       claimed_by = NULL, claimed_until = NULL
                 WHERE id = ? AND position = ? AND status = 'PENDING'""")) {
            update.setInt(1, attempts);
            update.setString(2, error);
            update.setObject(3, id);
            update.setLong(4, position);
            return update.executeUpdate() == 1;
        }
    }

    /** The captured message as a parked row, unless a row with its id exists; true when inserted. */
    private static boolean insertParked(Connection connection, OutboxMessage message, int attempts, String error)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                            headers, occurred_at, status, attempts, last_error, parked_at)
                VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, 'PARKED', ?, ?, now())
                ON CONFLICT (id) DO NOTHING""")) {
            insert.setObject(1, message.id());
            insert.setString(2, message.aggregateType());
            insert.setString(3, message.aggregateId());
            insert.setString(4, message.type());
            insert.setString(5, message.exchange());
            insert.setString(6, message.routingKey());
            insert.setString(7, message.payload());
            insert.setString(8, JSON.writeValueAsString(message.headers()));
            insert.setTimestamp(9, Timestamp.from(message.occurredAt()));
            insert.setInt(10, attempts);
            insert.setString(11, error);
            return insert.executeUpdate() == 1;
        }
    }

    private static String lastError(String error) {
        return error.length() > DeliveryFailure.MAX_ERROR_LENGTH
                ? error.substring(0, DeliveryFailure.MAX_ERROR_LENGTH) : error;
    }
}
