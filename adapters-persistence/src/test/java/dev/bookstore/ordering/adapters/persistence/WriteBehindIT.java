package dev.bookstore.ordering.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link WriteBehind} on a real PostgreSQL: a transaction's inserts wait for its commit and go in one statement text
 * (one execution, one round trip), a failing one fails the commit and takes the whole transaction back, and where
 * nothing can wait (no transaction, SQL Server, too many writes) each write goes at once. A transaction started
 * inside another keeps its writes apart from the other's.
 */
class WriteBehindIT {

    private static final String INSERT = "INSERT INTO customer_order_summary_event (event_id) VALUES (?)";

    private static TestDatabase database;
    private static DataSource dataSource;
    private static JdbcTemplate jdbc;
    private static TransactionTemplate transaction;
    /** The statement texts executed on the data source, one entry per execution. */
    private static final List<String> executed = new ArrayList<>();

    @BeforeAll
    static void migrate() {
        database = TestPostgres.newMigratedDatabase();
        DataSource plain = new DriverManagerDataSource(database.url(), database.username(), database.password());
        dataSource = new DelegatingDataSource(plain) {
            @Override
            public Connection getConnection() throws SQLException {
                return counting(super.getConnection());
            }
        };
        jdbc = new JdbcTemplate(dataSource);
        transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    @AfterAll
    static void drop() {
        if (database != null) {
            TestPostgres.drop(database);
        }
    }

    @BeforeEach
    void clean() {
        jdbc.update("DELETE FROM customer_order_summary_event");
        executed.clear();
    }

    @Test
    void aTransactionsWritesWaitForItsCommitAndGoInOneExecution() {
        WriteBehind writes = new WriteBehind(dataSource, Database.POSTGRESQL);
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();

        long seenBeforeCommit = transaction.execute(status -> {
            writes.write(INSERT, first);
            new WriteBehind(dataSource, Database.POSTGRESQL).write(INSERT, (statement, at) -> {
                statement.setObject(at, second);
                return at + 1;
            });
            return count();
        });

        assertThat(seenBeforeCommit).as("nothing sent before the commit").isZero();
        assertThat(executed).as("both writers' inserts, one execution").containsExactly(INSERT + ";\n" + INSERT);
        assertThat(ids()).containsExactlyInAnyOrder(first, second);
    }

    @Test
    void aStatementSentNowTakesTheWaitingWritesAlongAndEachOutcomeIsRead() {
        WriteBehind writes = new WriteBehind(dataSource, Database.POSTGRESQL);
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        String returning = "WITH added AS (" + INSERT + " RETURNING event_id) SELECT event_id FROM added";
        List<UUID> returned = new ArrayList<>();

        int count = transaction.execute(status -> {
            writes.write(returning, (rows, rowCount) -> {
                while (rows.next()) {
                    returned.add(rows.getObject(1, UUID.class));
                }
            }, first);
            assertThat(returned).as("not sent yet").isEmpty();
            return writes.update(INSERT + " ON CONFLICT DO NOTHING", second);
        });

        assertThat(count).isEqualTo(1);
        assertThat(returned).containsExactly(first);
        assertThat(executed).containsExactly(returning + ";\n" + INSERT + " ON CONFLICT DO NOTHING");
        assertThat(ids()).containsExactlyInAnyOrder(first, second);
        assertThat(writes.update(INSERT + " ON CONFLICT DO NOTHING", second)).as("alone, outside a transaction")
                .isZero();
    }

    @Test
    void aFlushSendsThemForAReadThatMustSeeThem() {
        WriteBehind writes = new WriteBehind(dataSource, Database.POSTGRESQL);

        long seen = transaction.execute(status -> {
            writes.write(INSERT, UUID.randomUUID());
            writes.flush();
            return count();
        });

        assertThat(seen).isEqualTo(1);
        assertThat(ids()).hasSize(1);
    }

    @Test
    void aWriteThatFailsFailsTheCommitAndNothingOfTheTransactionStays() {
        WriteBehind writes = new WriteBehind(dataSource, Database.POSTGRESQL);
        UUID taken = UUID.randomUUID();
        jdbc.update(INSERT, taken);
        UUID fresh = UUID.randomUUID();
        UUID sentAtOnce = UUID.randomUUID();

        assertThatThrownBy(() -> transaction.executeWithoutResult(status -> {
            jdbc.update(INSERT, sentAtOnce);
            writes.write(INSERT, fresh);
            writes.write(INSERT, taken);
        })).isInstanceOf(DuplicateKeyException.class);

        assertThat(ids()).containsExactly(taken);
    }

    @Test
    void aRolledBackTransactionSendsNothing() {
        WriteBehind writes = new WriteBehind(dataSource, Database.POSTGRESQL);

        transaction.executeWithoutResult(status -> {
            writes.write(INSERT, UUID.randomUUID());
            status.setRollbackOnly();
        });

        assertThat(executed).isEmpty();
        assertThat(ids()).isEmpty();
    }

    @Test
    void outsideATransactionAWriteGoesAtOnce() {
        UUID id = UUID.randomUUID();

        new WriteBehind(dataSource, Database.POSTGRESQL).write(INSERT, id);

        assertThat(executed).containsExactly(INSERT);
        assertThat(ids()).containsExactly(id);
    }

    @Test
    void onSqlServerEveryWriteGoesAtOnce() {
        // the flag is what decides; the statements themselves run on PostgreSQL here
        WriteBehind writes = new WriteBehind(dataSource, Database.SQL_SERVER);

        long seen = transaction.execute(status -> {
            writes.write(INSERT, UUID.randomUUID());
            writes.write(INSERT, UUID.randomUUID());
            return count();
        });

        assertThat(seen).isEqualTo(2);
        assertThat(executed.stream().filter(INSERT::equals)).hasSize(2);
    }

    @Test
    void pastTheMostPendingTheWaitingWritesAreSent() {
        WriteBehind writes = new WriteBehind(dataSource, Database.POSTGRESQL);
        int total = WriteBehind.MOST_PENDING + 1;

        long seenBeforeCommit = transaction.execute(status -> {
            for (int i = 0; i < total; i++) {
                writes.write(INSERT, UUID.randomUUID());
            }
            return count();
        });

        assertThat(seenBeforeCommit).isEqualTo(WriteBehind.MOST_PENDING);
        assertThat(ids()).hasSize(total);
    }

    @Test
    void aWriteFromAnotherSynchronizationBeforeTheCommitStillCommits() {
        WriteBehind writes = new WriteBehind(dataSource, Database.POSTGRESQL);
        UUID early = UUID.randomUUID();
        UUID late = UUID.randomUUID();

        transaction.executeWithoutResult(status -> {
            writes.write(INSERT, early);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void beforeCommit(boolean readOnly) {
                    writes.write(INSERT, late);
                }
            });
        });

        assertThat(ids()).containsExactlyInAnyOrder(early, late);
    }

    @Test
    void aWriteInATransactionStartedInsideAnotherCommitsWithItsOwnTransaction() {
        WriteBehind writes = new WriteBehind(dataSource, Database.POSTGRESQL);
        TransactionTemplate inner = new TransactionTemplate(transaction.getTransactionManager());
        inner.setPropagationBehavior(TransactionTemplate.PROPAGATION_REQUIRES_NEW);
        UUID outerId = UUID.randomUUID();
        UUID innerId = UUID.randomUUID();

        long seenAfterTheInnerCommit = transaction.execute(status -> {
            writes.write(INSERT, outerId);
            inner.executeWithoutResult(innerStatus -> writes.write(INSERT, innerId));
            long seen = count();
            status.setRollbackOnly();
            return seen;
        });

        assertThat(seenAfterTheInnerCommit).as("the inner transaction's row, committed; the outer's still waiting")
                .isEqualTo(1);
        assertThat(ids()).as("the outer rolled back; the inner had committed").containsExactly(innerId);
    }

    private static long count() {
        return jdbc.queryForObject("SELECT count(*) FROM customer_order_summary_event", Long.class);
    }

    private static List<UUID> ids() {
        return jdbc.queryForList("SELECT event_id FROM customer_order_summary_event", UUID.class);
    }

    /** Records every statement text executed through a prepared statement of {@code connection}. */
    private static Connection counting(Connection connection) {
        return (Connection) Proxy.newProxyInstance(WriteBehindIT.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    Object result = invoke(connection, method, args);
                    if (method.getName().equals("prepareStatement")
                            && !((String) args[0]).startsWith("SELECT ")
                            && !((String) args[0]).startsWith("DELETE")) {
                        String sql = (String) args[0];
                        PreparedStatement statement = (PreparedStatement) result;
                        return Proxy.newProxyInstance(WriteBehindIT.class.getClassLoader(),
                                new Class<?>[] {PreparedStatement.class}, (p, m, a) -> {
                                    if (m.getName().startsWith("execute")) {
                                        executed.add(sql);
                                    }
                                    return invoke(statement, m, a);
                                });
                    }
                    return result;
                });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
