package dev.bookstore.ordering.adapters.persistence.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import dev.bookstore.ordering.testing.TcpProxy;
import java.sql.SQLException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /**
     * A listening connection that stops answering (half-open: a firewall dropped its state; here a proxy that
     * freezes it) fails a wait within the keep-alive bound (a keep-alive query after 10 s without an answer, 5 s to
     * answer), so the listener falls back on its poll and listens again on a new connection, instead of waiting
     * for notifications that never come while the relay trusts them.
     */
    @Test
    void aListeningConnectionThatStopsAnsweringFailsWithinTheKeepAliveBoundAndListensAgain() throws Exception {
        Matcher hostPort = Pattern.compile("//([^:/]+):(\\d+)/").matcher(database.url());
        assertThat(hostPort.find()).isTrue();
        try (TcpProxy proxy = new TcpProxy(hostPort.group(1), Integer.parseInt(hostPort.group(2))).start()) {
            PostgresOutboxNotifications listener = new PostgresOutboxNotifications(new DriverManagerDataSource(
                    hostPort.replaceFirst("//127.0.0.1:" + proxy.port() + "/"), database.username(),
                    database.password()), () -> 0);
            try (listener) {
                assertThat(listener.await(Duration.ofMillis(1))).as("starts listening").isTrue();
                proxy.freeze();
                long frozen = System.nanoTime();

                await().atMost(Duration.ofSeconds(10 + 5 + 3)).pollDelay(Duration.ZERO).until(() -> {
                    try {
                        listener.await(Duration.ofMillis(200));
                        return false;
                    } catch (SQLException stoppedAnswering) {
                        return true;
                    }
                });
                System.out.printf("A frozen LISTEN connection failed %d ms after it stopped answering%n",
                        Duration.ofNanos(System.nanoTime() - frozen).toMillis());
                assertThat(listener.await(Duration.ofMillis(1))).as("listens again, on a new connection").isTrue();
                notifier.outboxMessagesCommitted(1);
                assertThat(listener.await(Duration.ofSeconds(5))).as("and hears").isTrue();
            }
        }
    }
}
