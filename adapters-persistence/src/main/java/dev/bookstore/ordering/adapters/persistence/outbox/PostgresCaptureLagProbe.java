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
 *
 * <p>The slot is lost when offsets were committed for it and it is missing, invalidated ({@code wal_status =
 * 'lost'}) or confirmed past every position the offsets hold (made anew after a loss; the connector's
 * {@code offset.mismatch.strategy=trust_offset} refuses to stream from such a slot), and while a recovery of it is
 * unfinished ({@code outbox_cdc_recovery}). The CDC relay's recovery and retention act on this same answer.
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
                       (SELECT max(committed_at) FROM outbox_cdc_offset WHERE slot_name = ?),
                       (EXISTS (SELECT 1 FROM outbox_cdc_offset WHERE slot_name = ?)
                        AND (slot.slot_name IS NULL OR slot.wal_status IS NOT DISTINCT FROM 'lost'
                             OR COALESCE(pg_wal_lsn_diff(slot.confirmed_flush_lsn, '0/0') > (
                                    SELECT max(greatest((o.v ->> 'lsn')::numeric, (o.v ->> 'lsn_proc')::numeric,
                                                        (o.v ->> 'lsn_commit')::numeric))
                                      FROM (SELECT convert_from(offset_value, 'UTF8')::jsonb AS v
                                              FROM outbox_cdc_offset WHERE slot_name = ?) AS o), false)))
                       OR EXISTS (SELECT 1 FROM outbox_cdc_recovery WHERE slot_name = ? AND finished_at IS NULL)
                  FROM (SELECT 1) AS one
                  LEFT JOIN pg_replication_slots slot ON slot.slot_name = ?""")) {
            select.setString(1, slotName);
            select.setString(2, slotName);
            select.setString(3, slotName);
            select.setString(4, slotName);
            select.setString(5, slotName);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                Instant now = row.getTimestamp(1).toInstant();
                Timestamp committed = row.getTimestamp(7);
                Instant confirmedAt = committed == null ? null : committed.toInstant();
                if (!row.getBoolean(3)) {
                    return new CaptureLag(false, false, 0, 0, now, row.getLong(2), confirmedAt, row.getBoolean(8));
                }
                return new CaptureLag(true, row.getBoolean(4), row.getLong(5), row.getLong(6), now, row.getLong(2),
                        confirmedAt, row.getBoolean(8));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read replication slot " + slotName, e);
        }
    }
}
