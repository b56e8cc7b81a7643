package dev.bookstore.ordering.adapters.persistence.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys.Claim;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys;
import dev.bookstore.ordering.application.testing.IdempotencyKeysContract;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The {@link IdempotencyKeys} contract on {@link JdbcIdempotencyKeys}, run against every database by one subclass
 * per database, plus what only a database can show: rows that other transactions hold. A subclass provides a
 * migrated database; every test starts from an empty table. An open transaction runs on a thread of its own,
 * as another request would.
 */
abstract class JdbcIdempotencyKeysContract extends IdempotencyKeysContract {

    private static final Duration RETENTION = Duration.ofHours(24);
    private static final long TIMEOUT_SECONDS = 30;

    private JdbcTemplate jdbc;
    private TransactionTemplate transaction;
    private JdbcIdempotencyKeys keys;

    /** A pooled data source on a database migrated by this dialect's Flyway scripts. */
    protected abstract DataSource dataSource();

    /** Moves a key's {@code created_at} back. Parameters: seconds, customer (as text), key. */
    protected abstract String backdateStatement();

    /**
     * Locks a key's row in the caller's transaction, as a purge of another instance does. Parameters: customer
     * (as text), key.
     */
    protected abstract String lockRowStatement();

    @BeforeEach
    void emptyTable() {
        jdbc = new JdbcTemplate(dataSource());
        transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));
        jdbc.update("DELETE FROM idempotency_key");
        keys = new JdbcIdempotencyKeys(dataSource());
    }

    @Override
    protected IdempotencyKeys keys() {
        return keys;
    }

    @Override
    protected <T> T committed(Supplier<T> work) {
        return transaction.execute(status -> work.get());
    }

    @Override
    protected OpenClaim claimInOpenTransaction(CustomerId customer, IdempotencyKey key, String fingerprint,
                                               OrderId orderId) {
        return new OpenTransaction(() -> keys.claim(customer, key, fingerprint, orderId));
    }

    @Override
    protected void backdate(CustomerId customer, IdempotencyKey key, Duration age) {
        assertThat(jdbc.update(backdateStatement(), age.toSeconds(), id(customer), key.value())).isOne();
    }

    @Override
    protected int recordedKeys() {
        return jdbc.queryForObject("SELECT count(*) FROM idempotency_key", Integer.class);
    }

    @Test
    void deletingExpiredKeysSkipsRowsAnotherTransactionHoldsInsteadOfWaitingForThem() {
        for (String key : new String[] {"old-1", "old-2", "old-3"}) {
            claim(ALICE, key, FINGERPRINT, order(1));
            backdate(ALICE, key(key), RETENTION.plusHours(1));
        }
        OpenTransaction otherPurge = new OpenTransaction(() -> {
            jdbc.queryForList(lockRowStatement(), id(ALICE), "old-2");
            return null;
        });
        otherPurge.claim();

        int deleted = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> committed(() -> keys.deleteExpired(RETENTION, 10)));

        assertThat(deleted).isEqualTo(2);
        otherPurge.rollback();
        assertThat(committed(() -> keys.deleteExpired(RETENTION, 10))).isOne();
        assertThat(recordedKeys()).isZero();
    }

    @Test
    void theKeyIsRecordedInTheCallersTransaction() {
        OpenClaim rolledBack = claimInOpenTransaction(ALICE, key("k-1"), FINGERPRINT, order(1));
        assertThat(rolledBack.claim()).isEqualTo(new Claim.Recorded());
        assertThat(recordedKeys()).as("not visible before commit").isZero();

        rolledBack.rollback();

        assertThat(recordedKeys()).isZero();
    }

    private static String id(CustomerId customer) {
        return customer.value().toString();
    }

    /** A transaction on a thread of its own, open from the first step until commit or rollback. */
    private final class OpenTransaction implements OpenClaim {

        private final CompletableFuture<Claim> claimed = new CompletableFuture<>();
        private final CountDownLatch finish = new CountDownLatch(1);
        private final Future<?> done;
        private volatile boolean commit;
        private volatile boolean finished;

        OpenTransaction(Supplier<Claim> firstStep) {
            ExecutorService thread = Executors.newSingleThreadExecutor();
            done = thread.submit(() -> transaction.executeWithoutResult(status -> {
                try {
                    claimed.complete(firstStep.get());
                } catch (RuntimeException e) {
                    claimed.completeExceptionally(e);
                    throw e;
                }
                try {
                    // Bounded, so a broken test never leaves a transaction open on the database.
                    finish.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (!commit) {
                    status.setRollbackOnly();
                }
            }));
            thread.shutdown();
        }

        @Override
        public Claim claim() {
            return await(claimed);
        }

        @Override
        public void commit() {
            finish(true);
        }

        @Override
        public void rollback() {
            finish(false);
        }

        @Override
        public boolean finished() {
            return finished;
        }

        private void finish(boolean commit) {
            this.commit = commit;
            this.finished = true;
            finish.countDown();
            await(done);
        }

        private static <T> T await(Future<T> future) {
            try {
                return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
