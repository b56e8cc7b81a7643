package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.capture.CaptureLag;
import dev.bookstore.ordering.application.outbox.capture.CaptureLagProbe;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The slot's lag from {@code pg_replication_slots}: bytes between its {@code confirmed_flush_lsn} (the reader's
 * last commit, made after the broker's confirms) and {@code pg_current_wal_lsn()}, and the WAL it retains from its
 * {@code restart_lsn}.
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
                SELECT active,
                       COALESCE(pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn), 0)::bigint,
                       COALESCE(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn), 0)::bigint
                  FROM pg_replication_slots WHERE slot_name = ?""")) {
            select.setString(1, slotName);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? new CaptureLag(true, row.getBoolean(1), row.getLong(2), row.getLong(3))
                        : CaptureLag.NO_SLOT;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read replication slot " + slotName, e);
        }
    }
}
