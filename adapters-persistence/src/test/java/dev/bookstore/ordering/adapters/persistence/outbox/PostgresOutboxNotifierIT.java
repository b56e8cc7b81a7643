package dev.bookstore.ordering.adapters.persistence.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The notifier on a real PostgreSQL, heard by a {@code LISTEN}ing connection as another instance's relay hears it:
 * the first commit is announced at once, the commits that follow within {@code notify-min-interval} by one
 * {@code NOTIFY} when the interval is over.
 */
class PostgresOutboxNotifierIT {

    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private TestDatabase database;
    private PostgresOutboxNotifications otherInstance;
    private PostgresOutboxNotifier notifier;

    @BeforeEach
    void listenAsAnotherInstance() throws Exception {
        database = TestPostgres.newDatabase();
        DriverManagerDataSource dataSource =
                new DriverManagerDataSource(database.url(), database.username(), database.password());
        otherInstance = new PostgresOutboxNotifications(dataSource, () -> 0);
        assertThat(otherInstance.await(Duration.ofMillis(1))).as("starts listening").isTrue();
        notifier = new PostgresOutboxNotifier(dataSource, INTERVAL);
        notifier.start();
    }

    @AfterEach
    void close() {
        notifier.close();
        otherInstance.close();
        TestPostgres.drop(database);
    }

    @Test
    void commitsWithinTheIntervalAreAnnouncedByOneNotifyAfterIt() throws Exception {
        notifier.outboxMessagesCommitted(1);
        assertThat(otherInstance.await(Duration.ofSeconds(5))).as("the first commit, at once").isTrue();
        long firstHeard = System.nanoTime();

        for (int commit = 0; commit < 20; commit++) {
            notifier.outboxMessagesCommitted(1);
        }

        // Before the fix, the first of these commits woke the sender out of its pause: a NOTIFY within milliseconds.
        assertThat(otherInstance.await(Duration.ofMillis(500))).as("nothing within the interval").isFalse();
        assertThat(otherInstance.await(Duration.ofSeconds(5))).as("the 20 commits, after the interval").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - firstHeard))
                .isGreaterThan(INTERVAL.minusMillis(200));
        assertThat(otherInstance.await(Duration.ofMillis(1_500))).as("by one NOTIFY").isFalse();
    }

    @Test
    void aCommitAfterAQuietIntervalIsAnnouncedAtOnce() throws Exception {
        notifier.outboxMessagesCommitted(1);
        assertThat(otherInstance.await(Duration.ofSeconds(5))).isTrue();
        assertThat(otherInstance.await(INTERVAL.plusMillis(200))).as("quiet for longer than the interval").isFalse();

        long committed = System.nanoTime();
        notifier.outboxMessagesCommitted(1);

        assertThat(otherInstance.await(Duration.ofSeconds(5))).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - committed)).isLessThan(INTERVAL.dividedBy(2));
    }
}
