package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.WriteBehind;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.OutboxRetention;
import dev.bookstore.ordering.application.outbox.admin.OutboxStatistics;
import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import dev.bookstore.ordering.application.outbox.relay.OutboxLeases;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The outbox table on plain JDBC with a dialect per database: the relay's {@link OutboxLeases}, the retention job's
 * {@link OutboxRetention}, the operator's {@link OutboxStatistics}, and the insert of {@link TransactionalOutboxWriter}.
 * Appending joins the caller's transaction (the order's), written behind ({@link WriteBehind}: on PostgreSQL sent
 * with the transaction's other inserts in one round trip before its commit); every other method is one
 * auto-committed statement, so no transaction is open while the relay waits for the broker.
 */
@Component
public class JdbcOutboxStore implements OutboxLeases, OutboxRetention, OutboxStatistics {

    private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
    };
    /** The order the database stored the rows in; never occurred_at, the clock of whichever instance wrote one. */
    private static final Comparator<OutboxMessage> BY_POSITION = Comparator.comparingLong(OutboxMessage::position);

    private final JdbcTemplate jdbc;
    private final WriteBehind writes;
    private final TransactionTemplate transaction;
    private final TransactionTemplate claimTransaction;
    private final Database database;
    private final OutboxDialect dialect;
    private final JsonMapper json;

    public JdbcOutboxStore(DataSource dataSource, JsonMapper json) {
        this.jdbc = new JdbcTemplate(dataSource);
        DataSourceTransactionManager transactions = new DataSourceTransactionManager(dataSource);
        this.transaction = new TransactionTemplate(transactions);
        this.claimTransaction = new TransactionTemplate(transactions);
        claimTransaction.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        this.database = Database.of(dataSource);
        this.dialect = OutboxDialect.of(database);
        this.writes = new WriteBehind(dataSource, database);
        this.json = json;
    }

    /** The database this store talks to. */
    public Database database() {
        return database;
    }

    void append(OutboxMessage message) {
        writes.write(dialect.insert(), database.id(message.id()), message.aggregateType(), message.aggregateId(),
                message.type(), message.exchange(), message.routingKey(), message.payload(),
                json.writeValueAsString(message.headers()), database.timestamp(message.occurredAt()));
    }

    /**
     * The SQL the relay's own connections run when they are made, if any: on PostgreSQL
     * {@code SET synchronous_commit TO off}, so a claim or a mark does not wait for a WAL flush of its own that the
     * orders' commits may queue behind. It cannot lose a message: orders and their rows commit durably on the API's
     * connections; a database crash can undo only the last relay commits (a lease, a mark), and an undone mark
     * means one more publish of the same message id, which consumers drop as after any crash between confirm and
     * mark. Nothing is marked published that the broker has not confirmed.
     */
    public Optional<String> relayConnectionSetup() {
        return dialect.relayConnectionSetup();
    }

    /**
     * One statement that leases and returns the rows, or (where the dialect has {@link OutboxDialect#leaseClaimed()})
     * a locking read and the lease of what it locked in one short {@code READ COMMITTED} transaction.
     */
    @Override
    public List<OutboxMessage> claim(String owner, int batchSize, Duration lease, boolean ordered) {
        Optional<String> leaseClaimed = dialect.leaseClaimed();
        List<OutboxMessage> claimed;
        if (leaseClaimed.isEmpty()) {
            claimed = new ArrayList<>(jdbc.query(dialect.claim(ordered), this::toMessage,
                    dialect.claimParameters(owner, batchSize, lease)));
        } else {
            claimed = claimTransaction.execute(status -> {
                List<OutboxMessage> locked = new ArrayList<>(jdbc.query(dialect.claim(ordered), this::toMessage,
                        dialect.claimParameters(owner, batchSize, lease)));
                if (!locked.isEmpty()) {
                    updateIds(leaseClaimed.get(), locked.stream().map(OutboxMessage::id).toList(), owner,
                            lease.toMillis());
                }
                return locked;
            });
        }
        // RETURNING / OUTPUT give no order; the relay publishes in the order the rows were stored.
        claimed.sort(BY_POSITION);
        return claimed;
    }

    /**
     * Marks the rows and adds them to the published count (see {@code V2__outbox_published_count.sql}) at once: in
     * one statement where the dialect has it ({@link OutboxDialect#markPublishedAndCount()}), otherwise in one
     * transaction.
     */
    @Override
    public int markPublished(String owner, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        int slot = Math.floorMod(owner.hashCode(), OutboxDialect.PUBLISHED_COUNT_SLOTS);
        Optional<String> markAndCount = dialect.markPublishedAndCount();
        if (markAndCount.isPresent()) {
            return withIds(markAndCount.get(), ids, statement -> {
                try (ResultSet marked = statement.executeQuery()) {
                    marked.next();
                    return marked.getInt(1);
                }
            }, owner, slot);
        }
        Integer marked = transaction.execute(status -> {
            int count = updateIds(dialect.markPublished(), ids, owner);
            if (count > 0) {
                jdbc.update(OutboxDialect.COUNT_PUBLISHED, count, slot);
            }
            return count;
        });
        return marked == null ? 0 : marked;
    }

    @Override
    public int release(String owner, Collection<UUID> ids) {
        return ids.isEmpty() ? 0 : updateIds(dialect.release(), ids, owner);
    }

    /** {@link JdbcOutboxAdministration#unpark}: the statement takes an id list, as the relay's outcomes do. */
    int unpark(Collection<UUID> ids) {
        return ids.isEmpty() ? 0 : updateIds(dialect.unpark(), ids);
    }

    @Override
    public int recordFailures(String owner, List<DeliveryFailure> failures) {
        if (failures.isEmpty()) {
            return 0;
        }
        int[][] counts = jdbc.batchUpdate(dialect.recordFailure(), failures, failures.size(), (ps, failure) -> {
            ps.setString(1, failure.parks() ? "PARKED" : "PENDING");
            ps.setString(2, failure.error());
            if (failure.parks()) {
                ps.setNull(3, Types.BIGINT);
            } else {
                ps.setObject(3, database.milliseconds(failure.retryAfter()));
            }
            ps.setString(4, failure.parks() ? "PARKED" : "PENDING");
            ps.setObject(5, database.id(failure.messageId()));
            ps.setString(6, owner);
        });
        int updated = 0;
        for (int[] chunk : counts) {
            for (int count : chunk) {
                updated += Math.max(count, 0);
            }
        }
        return updated;
    }

    @Override
    public int deletePublishedOlderThan(Duration age, int limit) {
        return jdbc.update(dialect.deletePublished(), dialect.deletePublishedParameters(age, limit));
    }

    @Override
    public OutboxStats count() {
        return jdbc.queryForObject(dialect.stats(), (rs, row) -> {
            long oldestMillis = rs.getLong(4);
            long leaseEndMillis = rs.getLong(5);
            Duration nextLeaseEnd = rs.wasNull() ? null : Duration.ofMillis(Math.max(leaseEndMillis, 0));
            return new OutboxStats(rs.getLong(1), rs.getLong(2), rs.getLong(3),
                    Duration.ofMillis(Math.max(oldestMillis, 0)), nextLeaseEnd);
        });
    }

    private int updateIds(String sql, Collection<UUID> ids, Object... more) {
        return withIds(sql, ids, PreparedStatement::executeUpdate, more);
    }

    /** Runs {@code sql} with the id list as its first parameter and {@code more} after it. */
    private <T> T withIds(String sql, Collection<UUID> ids, StatementRun<T> run, Object... more) {
        return jdbc.execute((ConnectionCallback<T>) connection -> {
            try (var statement = connection.prepareStatement(sql)) {
                statement.setObject(1, dialect.idList(connection, ids));
                for (int i = 0; i < more.length; i++) {
                    statement.setObject(i + 2, more[i]);
                }
                return run.apply(statement);
            }
        });
    }

    @FunctionalInterface
    private interface StatementRun<T> {
        T apply(PreparedStatement statement) throws SQLException;
    }

    private OutboxMessage toMessage(ResultSet rs, int row) throws SQLException {
        return readMessage(rs, database, json);
    }

    /**
     * The message in the first eleven columns, in the order {@link OutboxDialect#claim} returns them: id,
     * aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at, attempts, position.
     */
    static OutboxMessage readMessage(ResultSet rs, Database database, JsonMapper json) throws SQLException {
        return new OutboxMessage(
                UUID.fromString(rs.getString(1)),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7),
                json.readValue(rs.getString(8), HEADERS),
                database.instant(rs, 9),
                rs.getInt(10),
                rs.getLong(11));
    }
}
