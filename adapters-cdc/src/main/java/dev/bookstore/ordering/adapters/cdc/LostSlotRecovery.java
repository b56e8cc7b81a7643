package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.capture.CaptureLag;
import dev.bookstore.ordering.application.outbox.capture.CaptureLagProbe;
import dev.bookstore.ordering.application.outbox.capture.CapturedRound;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesUseCase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What the reader does before each start of the engine: it checks that its slot still holds what the offsets
 * expect, and recovers it when not. The slot is lost ({@link CaptureLag#slotLost()}) when offsets were committed for
 * it and it is missing (dropped, or a failover to a server that never had it), invalidated ({@code wal_status =
 * 'lost'}) or made anew: the WAL past its last confirmed position is gone, and a new slot starts at the present,
 * skipping the gap.
 *
 * <p>The recovery: (1) {@code outbox_cdc_recovery} records that it started and from when it sends rows again: the
 * horizon of the newest mark the old slot confirmed ({@code JdbcCapturedMessageRetention}), before which every row
 * was delivered; the marks go, so none is confirmed by the new slot; (2) the slot is made again (a lost one dropped
 * first), so everything committed from then on is streamed; (3) every pending row stored from the horizon on is
 * published, in {@code position} order, with confirms, as the stream publishes (failures are counted and parked the
 * same way); (4) the offsets and marks of the old slot are deleted and the recovery is finished, in one transaction;
 * the engine then starts on the new slot. A reader that dies in between finds the unfinished recovery and does it
 * again from (2). Duplicates: the rows of the horizon's mark interval the old slot had delivered, and those committed
 * between (2) and (3), which the new slot streams too.
 */
final class LostSlotRecovery {

    private static final System.Logger LOG = System.getLogger(LostSlotRecovery.class.getName());
    private static final int CHUNK = 500;

    /** Whether the engine may start. */
    enum Outcome { READY, WAITING, STOPPED }

    private final CdcSettings settings;
    private final RelayCapturedMessagesUseCase relay;
    private final CaptureLagProbe slot;
    private final CountDownLatch stopped;
    private boolean warned;

    LostSlotRecovery(CdcSettings settings, RelayCapturedMessagesUseCase relay, CaptureLagProbe slot,
                     CountDownLatch stopped) {
        this.settings = settings;
        this.relay = relay;
        this.slot = slot;
        this.stopped = stopped;
    }

    /** Checks the slot and recovers it if it is lost; {@code leader} answers false once the lock is lost. */
    Outcome prepare(BooleanSupplier leader) throws SQLException {
        try (Connection connection = connect()) {
            Timestamp resendFrom = unfinishedRecovery(connection);
            if (resendFrom == null) {
                if (!slot.measure().slotLost()) {
                    warned = false;
                    return Outcome.READY;
                }
                if (!settings.recoverLostSlot()) {
                    if (!warned) {
                        warned = true;
                        LOG.log(System.Logger.Level.WARNING, "Replication slot {0} is lost (missing or invalidated "
                                + "although offsets were committed for it); recovery is off, so the change stream "
                                + "waits. Recover it as docs/cdc.md says.", settings.slotName());
                    }
                    return Outcome.WAITING;
                }
                resendFrom = begin(connection);
            }
            LOG.log(System.Logger.Level.WARNING, "Replication slot {0} is lost; {1} makes it again and sends every "
                    + "pending outbox row stored from {2} on again", settings.slotName(), settings.instance(),
                    resendFrom.toInstant());
            makeSlot(connection);
            long resent = resend(connection, resendFrom, leader);
            if (resent < 0) {
                return Outcome.STOPPED;
            }
            finish(connection, resent);
            warned = false;
            LOG.log(System.Logger.Level.WARNING, "Replication slot {0} recovered: {1} outbox row(s) sent again; "
                    + "the change stream starts on the new slot", settings.slotName(), resent);
            return Outcome.READY;
        }
    }

    private Timestamp unfinishedRecovery(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT resend_from FROM outbox_cdc_recovery WHERE slot_name = ? AND finished_at IS NULL")) {
            select.setString(1, settings.slotName());
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getTimestamp(1) : null;
            }
        }
    }

    /** Step 1: the horizon to send again from, recorded with the recovery; the old slot's marks go. */
    private Timestamp begin(Connection connection) throws SQLException {
        return inTransaction(connection, () -> {
            Timestamp resendFrom;
            try (PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO outbox_cdc_recovery (slot_name, resend_from)
                    SELECT ?, COALESCE((SELECT horizon FROM outbox_cdc_mark
                                         WHERE slot_name = ? AND confirmed_at IS NOT NULL
                                         ORDER BY wal_position DESC LIMIT 1), '-infinity')
                    RETURNING resend_from""")) {
                insert.setString(1, settings.slotName());
                insert.setString(2, settings.slotName());
                try (ResultSet row = insert.executeQuery()) {
                    row.next();
                    resendFrom = row.getTimestamp(1);
                }
            }
            deleteMarks(connection);
            return resendFrom;
        });
    }

    /** Step 2: a lost slot dropped, a missing one made; from its consistent point on, the slot streams. */
    private void makeSlot(Connection connection) throws SQLException {
        try (PreparedStatement drop = connection.prepareStatement("""
                SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots
                 WHERE slot_name = ? AND wal_status = 'lost'""")) {
            drop.setString(1, settings.slotName());
            drop.executeQuery().close();
        }
        try (PreparedStatement create = connection.prepareStatement("""
                SELECT pg_create_logical_replication_slot(?, 'pgoutput')
                 WHERE NOT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = ?)""")) {
            create.setString(1, settings.slotName());
            create.setString(2, settings.slotName());
            create.executeQuery().close();
        }
    }

    /** Step 3: every pending row stored from the horizon on, in chunks by position; -1 if stopped first. */
    private long resend(Connection connection, Timestamp resendFrom, BooleanSupplier leader) throws SQLException {
        long resent = 0;
        long after = Long.MIN_VALUE;
        while (true) {
            if (!leader.getAsBoolean()) {
                return -1;
            }
            List<OutboxMessage> chunk = chunk(connection, resendFrom, after);
            if (chunk.isEmpty()) {
                return resent;
            }
            int next = 0;
            while (next < chunk.size()) {
                CapturedRound round = relay.relay(chunk.subList(next, chunk.size()), this::stopping);
                next += round.settled();
                if (next < chunk.size() && waitStopped(round)) {
                    return -1;
                }
            }
            resent += chunk.size();
            after = chunk.get(chunk.size() - 1).position();
        }
    }

    private List<OutboxMessage> chunk(Connection connection, Timestamp resendFrom, long after) throws SQLException {
        List<OutboxMessage> messages = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("""
                SELECT id, aggregate_type, aggregate_id, type, exchange, routing_key, payload::text, headers::text,
                       occurred_at, attempts, position
                  FROM outbox_message
                 WHERE status = 'PENDING' AND created_at >= ? AND position > ?
                 ORDER BY position LIMIT ?""")) {
            select.setTimestamp(1, resendFrom);
            select.setLong(2, after);
            select.setInt(3, CHUNK);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    messages.add(new OutboxMessage(row.getObject(1, UUID.class), row.getString(2), row.getString(3),
                            row.getString(4), row.getString(5), row.getString(6), row.getString(7),
                            CapturedRecords.headers(row.getString(8)), row.getTimestamp(9).toInstant(),
                            row.getInt(10), row.getLong(11)));
                }
            }
        }
        return messages;
    }

    /** Step 4: the old slot's offsets and marks go with the recovery's end, so a new reader starts on the new slot. */
    private void finish(Connection connection, long resent) throws SQLException {
        inTransaction(connection, () -> {
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM outbox_cdc_offset WHERE slot_name = ?")) {
                delete.setString(1, settings.slotName());
                delete.executeUpdate();
            }
            deleteMarks(connection);
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE outbox_cdc_recovery SET finished_at = now(), resent = ?
                     WHERE slot_name = ? AND finished_at IS NULL""")) {
                update.setLong(1, resent);
                update.setString(2, settings.slotName());
                update.executeUpdate();
            }
            return null;
        });
    }

    /** Statements that commit together. */
    private interface Work<T> {
        T run() throws SQLException;
    }

    private static <T> T inTransaction(Connection connection, Work<T> work) throws SQLException {
        connection.setAutoCommit(false);
        try {
            T result = work.run();
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private void deleteMarks(Connection connection) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(
                "DELETE FROM outbox_cdc_mark WHERE slot_name = ?")) {
            delete.setString(1, settings.slotName());
            delete.executeUpdate();
        }
    }

    private boolean stopping() {
        return stopped.getCount() == 0;
    }

    /** Waits the round's delay before the rest is offered again; true when the relay stops meanwhile. */
    private boolean waitStopped(CapturedRound round) {
        LOG.log(System.Logger.Level.WARNING, "Outbox message not delivered while recovering slot {0} ({1}); "
                + "offered again in {2}", settings.slotName(), round.reason(), round.retryAfter());
        try {
            return stopped.await(round.retryAfter().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private Connection connect() throws SQLException {
        return AdvisoryLockLeadership.connect(settings, "ordering-cdc-recovery " + settings.instance());
    }
}
