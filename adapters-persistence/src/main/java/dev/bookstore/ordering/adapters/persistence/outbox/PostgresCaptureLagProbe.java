package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.application.outbox.capture.CaptureLag;
import dev.bookstore.ordering.application.outbox.capture.CaptureLagProbe;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * The slot's lag from {@code pg_replication_slots}: bytes between its {@code confirmed_flush_lsn} (the reader's
 * last commit, made after the broker's confirms) and {@code pg_current_wal_lsn()}, and the WAL it retains from its
 * {@code restart_lsn}; with the database's time, the WAL's end and the reader's last offset commit
 * ({@code outbox_cdc_offset}), from which the age of the oldest unconfirmed change follows. One statement.
 */
public final class PostgresCaptureLagProbe implements CaptureLagProbe {

    private final DataSource dataSource;
    private final String slotName;

    public PostgresCaptureLagProbe(DataSource dataSource, String slotName) {
        this.dataSource = dataSource;
        this.slotName = slotName;
    }

    @Override
    public CaptureLag measure() {
        try (Connection connection = dataSource.getConnection(); PreparedStatement select = connection.prepareStatement("""
                SELECT now(), pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, slot.slot_name IS NOT NULL,
                       COALESCE(slot.active, false),
                       COALESCE(pg_wal_lsn_diff(pg_current_wal_lsn(), slot.confirmed_flush_lsn), 0)::bigint,
                       COALESCE(pg_wal_lsn_diff(pg_current_wal_lsn(), slot.restart_lsn), 0)::bigint,
                       (SELECT max(committed_at) FROM outbox_cdc_offset WHERE slot_name = ?)
                  FROM (SELECT 1) AS one
                  LEFT JOIN pg_replication_slots slot ON slot.slot_name = ?""")) {
            select.setString(1, slotName);
            select.setString(2, slotName);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                Instant now = row.getTimestamp(1).toInstant();
                if (!row.getBoolean(3)) {
                    return CaptureLag.noSlot(now, row.getLong(2));
                }
                Timestamp committed = row.getTimestamp(7);
                return new CaptureLag(true, row.getBoolean(4), row.getLong(5), row.getLong(6), now, row.getLong(2),
                        committed == null ? null : committed.toInstant());
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read replication slot " + slotName, e);
        }
    }
}
