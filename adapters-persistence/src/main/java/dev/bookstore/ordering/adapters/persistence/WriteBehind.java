package dev.bookstore.ordering.adapters.persistence;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCallback;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Writes whose outcome nothing in the transaction waits for (inserts of rows whose ids the caller made, writes whose
 * {@link Outcome} only matters after the commit), sent together just before the commit as one statement text: placing
 * an order writes the order and the outbox row from two places in one round trip.
 * {@link #update} takes the waiting writes along with a statement that must go now, {@link #flush()} sends them for a
 * read; a failing write fails the commit. A write goes at once outside a transaction, during the commit, past
 * {@link #MOST_PENDING} waiting writes, and on engines where statements go one per round trip. The writes of a
 * transaction are shared by every {@code WriteBehind} on the same data source.
 */
public final class WriteBehind {

    /** The most writes that wait for the commit; the next one sends them (bulk writes gain nothing by waiting). */
    static final int MOST_PENDING = 8;

    /** The parameters of one statement, bound from position {@code first} on; gives the position after the last. */
    @FunctionalInterface
    public interface Parameters {
        int bind(PreparedStatement statement, int first) throws SQLException;
    }

    /** What a write returned, for a caller that reads it: its rows (a query), or none and its row count. */
    @FunctionalInterface
    public interface Outcome {
        void read(ResultSet rows, int count) throws SQLException;
    }

    private record Write(String sql, Parameters parameters, Outcome outcome) {
    }

    /** The key of a transaction's pending writes on one data source. */
    private record Key(DataSource dataSource) {
    }

    private final JdbcTemplate jdbc;
    private final Key key;
    private final boolean behind;

    public WriteBehind(DataSource dataSource, Database database) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.key = new Key(Objects.requireNonNull(dataSource, "dataSource"));
        this.behind = switch (database) {
            case POSTGRESQL -> true; // the driver runs a text of several statements with their parameters in one trip
            case SQL_SERVER -> false; // one statement per round trip, as the dialect tests pin them
            case MARIADB -> false; // several statements in one text need allowMultiQueries on the connection
        };
    }

    /** Writes {@code sql} with {@code arguments}, bound as {@link JdbcTemplate#update(String, Object...)} does. */
    public void write(String sql, Object... arguments) {
        write(sql, null, arguments);
    }

    /**
     * As {@link #write(String, Object...)}; {@code outcome} reads what it returned once it was sent (in the
     * transaction: with the next statement sent through this class, or just before the commit).
     */
    public void write(String sql, Outcome outcome, Object... arguments) {
        write(new Write(sql, bound(arguments), outcome));
    }

    /** Writes {@code sql} with the parameters {@code parameters} binds: before the commit, or at once (see above). */
    public void write(String sql, Parameters parameters) {
        write(new Write(sql, parameters, null));
    }

    /**
     * Sends {@code sql} now, and the transaction's waiting writes ahead of it in the same statement text (in the order
     * they came, one round trip for all); its row count.
     */
    public int update(String sql, Object... arguments) {
        int[] count = {0};
        Write write = new Write(sql, bound(arguments), (rows, rowCount) -> count[0] = rowCount);
        Pending pending = (Pending) TransactionSynchronizationManager.getResource(key);
        if (pending == null || pending.writes.isEmpty()) {
            send(List.of(write));
        } else {
            pending.writes.add(write);
            pending.send();
        }
        return count[0];
    }

    private void write(Write write) {
        Pending pending = behind ? pending() : null;
        if (pending == null || pending.committing) {
            send(List.of(write));
            return;
        }
        pending.writes.add(write);
        if (pending.writes.size() >= MOST_PENDING) {
            pending.send();
        }
    }

    private static Parameters bound(Object[] arguments) {
        return (statement, first) -> {
            for (Object argument : arguments) {
                StatementCreatorUtils.setParameterValue(statement, first++, SqlTypeValue.TYPE_UNKNOWN, argument);
            }
            return first;
        };
    }

    /** Sends the current transaction's waiting writes now, for a read that must see them. */
    public void flush() {
        Pending pending = (Pending) TransactionSynchronizationManager.getResource(key);
        if (pending != null) {
            pending.send();
        }
    }

    /** The current transaction's pending writes, registered on first use; none outside a transaction. */
    private Pending pending() {
        if (!TransactionSynchronizationManager.isSynchronizationActive()
                || !TransactionSynchronizationManager.isActualTransactionActive()) {
            return null;
        }
        Pending pending = (Pending) TransactionSynchronizationManager.getResource(key);
        if (pending == null) {
            pending = new Pending();
            TransactionSynchronizationManager.bindResource(key, pending);
            TransactionSynchronizationManager.registerSynchronization(pending);
        }
        return pending;
    }

    /** One statement text for all of {@code writes}, their parameters one after the other; executed once. */
    private void send(List<Write> writes) {
        String sql = writes.size() == 1
                ? writes.get(0).sql()
                : writes.stream().map(Write::sql).collect(Collectors.joining(";\n"));
        jdbc.execute(sql, (PreparedStatementCallback<Void>) statement -> {
            int next = 1;
            for (Write write : writes) {
                next = write.parameters().bind(statement, next);
            }
            // the driver runs them all, in order, and throws for the first that fails; then one result each
            boolean rows = statement.execute();
            for (Write write : writes) {
                if (write.outcome() != null) {
                    ResultSet returned = rows ? statement.getResultSet() : null;
                    write.outcome().read(returned, rows ? -1 : statement.getUpdateCount());
                }
                rows = statement.getMoreResults();
            }
            return null;
        });
    }

    /** A transaction's writes that wait for its commit. */
    private final class Pending implements TransactionSynchronization {

        private final List<Write> writes = new ArrayList<>(4);
        /** Set when the commit begins: a write from another synchronization's {@code beforeCommit} goes at once. */
        private boolean committing;

        void send() {
            if (!writes.isEmpty()) {
                List<Write> sending = List.copyOf(writes);
                writes.clear();
                WriteBehind.this.send(sending);
            }
        }

        /** First of the transaction's synchronizations: whatever the others do before the commit sees the rows. */
        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }

        /**
         * A transaction started inside this one ({@code REQUIRES_NEW}) has writes of its own: these stay with this
         * transaction, out of the other's sight, until it resumes.
         */
        @Override
        public void suspend() {
            TransactionSynchronizationManager.unbindResource(key);
        }

        @Override
        public void resume() {
            TransactionSynchronizationManager.bindResource(key, this);
        }

        @Override
        public void beforeCommit(boolean readOnly) {
            committing = true;
            send();
        }

        @Override
        public void afterCompletion(int status) {
            writes.clear();
            TransactionSynchronizationManager.unbindResourceIfPossible(key);
        }
    }
}
