package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.application.outbox.capture.CaptureHorizon;
import dev.bookstore.ordering.application.outbox.capture.CaptureLag;
import dev.bookstore.ordering.application.outbox.capture.CaptureLagProbe;
import dev.bookstore.ordering.application.outbox.capture.CaptureHorizon.Hold;
import dev.bookstore.ordering.application.outbox.capture.CapturedMessageRetention;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * Deletes relayed rows in cdc mode, by age and only behind the slot's confirmed marks ({@code outbox_cdc_mark}, V9).
 * A mark's horizon is the database's time, or the start of the oldest transaction then open in this database if
 * earlier; its WAL position is read after it. A row's {@code created_at} is its transaction's start, so a row stored
 * before the horizon committed before that position: once the slot's {@code confirmed_flush_lsn} is past it, the
 * broker has every such row. Marks are made only while the slot is read. The publication carries inserts only, so no
 * delete is ever streamed.
 */
public final class JdbcCapturedMessageRetention implements CapturedMessageRetention {

    private final DataSource dataSource;
    private final String slotName;
    private final CaptureLagProbe slot;

    /** @param slot the slot's state: missing, lost (or being recovered), read */
    public JdbcCapturedMessageRetention(DataSource dataSource, String slotName, CaptureLagProbe slot) {
        this.dataSource = dataSource;
        this.slotName = slotName;
        this.slot = slot;
    }

    @Override
    public CaptureHorizon advance() {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            Hold hold = hold();
            if (hold != Hold.NONE) {
                return CaptureHorizon.held(hold);
            }
            mark(connection);
            return confirmed(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot mark the CDC slot " + slotName, e);
        }
    }

    /** Why nothing may be deleted now, from the slot's state ({@link CaptureLagProbe}). */
    private Hold hold() {
        CaptureLag lag = slot.measure();
        if (lag.slotLost()) {
            return lag.slotExists() ? Hold.SLOT_LOST : Hold.SLOT_MISSING;
        }
        if (!lag.slotExists()) {
            return Hold.SLOT_MISSING;
        }
        return lag.reading() ? Hold.NONE : Hold.SLOT_NOT_READ;
    }

    /**
     * The horizon first, the WAL position in a later statement: a transaction that commits after the position either
     * was open when the horizon was read (and its start is not before it) or started later.
     */
    private void mark(Connection connection) throws SQLException {
        Timestamp horizon;
        try (PreparedStatement select = connection.prepareStatement("""
                SELECT least(clock_timestamp(), (SELECT min(xact_start) FROM pg_stat_activity
                                                  WHERE datname = current_database()))""");
             ResultSet row = select.executeQuery()) {
            row.next();
            horizon = row.getTimestamp(1);
        }
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO outbox_cdc_mark (slot_name, wal_position, horizon)
                VALUES (?, pg_current_wal_insert_lsn(), ?) ON CONFLICT DO NOTHING""")) {
            insert.setString(1, slotName);
            insert.setTimestamp(2, horizon);
            insert.executeUpdate();
        }
    }

    /** Notes the marks the slot has passed, keeps the newest of them (and those not passed yet) and answers it. */
    private CaptureHorizon confirmed(Connection connection) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("""
                UPDATE outbox_cdc_mark mark SET confirmed_at = now()
                  FROM pg_replication_slots slot
                 WHERE mark.slot_name = ? AND slot.slot_name = mark.slot_name AND mark.confirmed_at IS NULL
                   AND mark.wal_position <= slot.confirmed_flush_lsn""")) {
            update.setString(1, slotName);
            update.executeUpdate();
        }
        Timestamp horizon = null;
        Timestamp now = null;
        String position = null;
        try (PreparedStatement select = connection.prepareStatement("""
                SELECT horizon, wal_position::text, now() FROM outbox_cdc_mark
                 WHERE slot_name = ? AND confirmed_at IS NOT NULL ORDER BY wal_position DESC LIMIT 1""")) {
            select.setString(1, slotName);
            try (ResultSet row = select.executeQuery()) {
                if (row.next()) {
                    horizon = row.getTimestamp(1);
                    position = row.getString(2);
                    now = row.getTimestamp(3);
                }
            }
        }
        if (horizon == null) {
            return CaptureHorizon.held(Hold.NOTHING_CONFIRMED);
        }
        try (PreparedStatement delete = connection.prepareStatement(
                "DELETE FROM outbox_cdc_mark WHERE slot_name = ? AND wal_position < ?::pg_lsn")) {
            delete.setString(1, slotName);
            delete.setString(2, position);
            delete.executeUpdate();
        }
        return new CaptureHorizon(Hold.NONE, horizon.toInstant(), now.toInstant());
    }

    @Override
    public int deleteCapturedOlderThan(Duration age, Instant horizon, int limit) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement delete = connection.prepareStatement("""
                DELETE FROM outbox_message
                 WHERE id IN (SELECT id FROM outbox_message
                               WHERE status <> 'PARKED' AND created_at < now() - ? * interval '1 millisecond'
                                 AND created_at < ?
                               ORDER BY position LIMIT ?)""")) {
            delete.setLong(1, age.toMillis());
            delete.setTimestamp(2, Timestamp.from(horizon));
            delete.setInt(3, limit);
            return delete.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot delete relayed outbox messages", e);
        }
    }
}
