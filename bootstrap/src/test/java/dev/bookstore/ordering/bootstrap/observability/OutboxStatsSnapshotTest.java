package dev.bookstore.ordering.bootstrap.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.bookstore.ordering.application.outbox.admin.GetOutboxStatsQuery;
import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The snapshot is the only reader of the database: gauges, health and {@code /outbox/stats} read what it holds. */
class OutboxStatsSnapshotTest {

    private final AtomicInteger queries = new AtomicInteger();
    private final AtomicReference<Object> next = new AtomicReference<>(new OutboxStats(3, 1, 7, Duration.ofSeconds(2)));
    private final GetOutboxStatsQuery database = () -> {
        queries.incrementAndGet();
        Object answer = next.get();
        if (answer instanceof RuntimeException e) {
            throw e;
        }
        return (OutboxStats) answer;
    };
    private final OutboxStatsSnapshot snapshot = new OutboxStatsSnapshot(database, Duration.ofMinutes(1),
            Duration.ofMinutes(1));
    private final OutboxHealthIndicator health = new OutboxHealthIndicator(snapshot,
            new OutboxHealthThresholds(Duration.ofSeconds(10), Duration.ofSeconds(60)));

    @Test
    void readersOfTheGaugesTheHealthAndTheStatsNeverQueryTheDatabase() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new OutboxGauges(snapshot).bindTo(registry);
        snapshot.refresh();

        for (int i = 0; i < 100; i++) {
            snapshot.outboxStats();
            health.health();
            registry.get(OutboxGauges.PENDING).gauge().value();
        }

        assertThat(queries).hasValue(1);
        assertThat(registry.get(OutboxGauges.PENDING).gauge().value()).isEqualTo(3);
        assertThat(registry.get(OutboxGauges.PARKED).gauge().value()).isEqualTo(1);
        assertThat(registry.get(OutboxGauges.OLDEST_PENDING_AGE).gauge().value()).isEqualTo(2.0);
        assertThat(snapshot.outboxStats()).isEqualTo(new OutboxStats(3, 1, 7, Duration.ofSeconds(2)));
    }

    @Test
    void theGaugesFollowTheNextRefresh() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new OutboxGauges(snapshot).bindTo(registry);
        snapshot.refresh();
        next.set(new OutboxStats(0, 2, 10, Duration.ZERO));

        snapshot.refresh();

        assertThat(registry.get(OutboxGauges.PENDING).gauge().value()).isZero();
        assertThat(registry.get(OutboxGauges.PARKED).gauge().value()).isEqualTo(2);
        assertThat(registry.get(OutboxGauges.OLDEST_PENDING_AGE).gauge().value()).isZero();
    }

    @Test
    void aFailedRefreshKeepsTheLastNumbersAndMakesTheHealthUnknown() {
        snapshot.refresh();
        next.set(new IllegalStateException("connection refused"));

        snapshot.refresh();

        assertThat(snapshot.outboxStats().pending()).isEqualTo(3);
        Health unknown = health.health();
        assertThat(unknown.getStatus()).isEqualTo(Status.UNKNOWN);
        assertThat(unknown.getDetails()).containsKey("error").containsKey("lastCountedAt");

        next.set(new OutboxStats(0, 0, 10, Duration.ZERO));
        snapshot.refresh();
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void beforeTheFirstCountTheStatsAreNotInventedButTheGaugesShowZero() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new OutboxGauges(snapshot).bindTo(registry);

        assertThatIllegalStateException().isThrownBy(snapshot::outboxStats);
        assertThat(registry.get(OutboxGauges.PENDING).gauge().value()).isZero();
        assertThat(health.health().getStatus()).isEqualTo(Status.UNKNOWN);
    }

    @Test
    void theHealthShowsTheAgeAndTheThresholds() {
        next.set(new OutboxStats(4, 0, 0, Duration.ofSeconds(11)));
        snapshot.refresh();

        Health degraded = health.health();

        assertThat(degraded.getStatus()).isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(degraded.getDetails()).containsEntry("pending", 4L).containsEntry("oldestPendingAgeSeconds", 11.0)
                .containsEntry("degradedAfterSeconds", 10.0).containsEntry("downAfterSeconds", 60.0);
    }

    @Test
    void startCountsAtOnceAndStopEndsTheRefreshes() {
        snapshot.start();
        try {
            assertThat(queries).hasValue(1);
            assertThat(snapshot.isRunning()).isTrue();
        } finally {
            snapshot.stop();
        }
        assertThat(snapshot.isRunning()).isFalse();
    }

    @Test
    void countAgainInCountsOnceMoreBeforeTheNextIntervalAndNotAfterStop() throws InterruptedException {
        CountDownLatch second = new CountDownLatch(2);
        snapshot.onEachCount(stats -> second.countDown());
        snapshot.countAgainIn(Duration.ofMillis(1));
        assertThat(queries).as("not started: nothing scheduled").hasValue(0);

        snapshot.start(); // counts at once; the next regular count is a minute away
        try {
            snapshot.countAgainIn(Duration.ofMillis(20));
            assertThat(second.await(10, TimeUnit.SECONDS)).as("the extra count came").isTrue();
            assertThat(queries).hasValue(2);
        } finally {
            snapshot.stop();
        }
        snapshot.countAgainIn(Duration.ofMillis(1));
        assertThat(snapshot.isRunning()).isFalse();
        assertThat(queries).hasValue(2);
    }

    @Test
    void listenersGetEverySuccessfulCountAndAFailingOneStopsNothing() {
        List<OutboxStats> counted = new ArrayList<>();
        snapshot.onEachCount(stats -> {
            throw new IllegalStateException("a listener that fails");
        });
        snapshot.onEachCount(counted::add);

        snapshot.refresh();
        next.set(new IllegalStateException("database down"));
        snapshot.refresh();
        next.set(new OutboxStats(0, 0, 8, Duration.ZERO));
        snapshot.refresh();

        assertThat(counted).containsExactly(new OutboxStats(3, 1, 7, Duration.ofSeconds(2)),
                new OutboxStats(0, 0, 8, Duration.ZERO));
    }

    @Test
    void aQuietOutboxIsCountedAtTheIdleIntervalAndActivityBringsTheShortOneBack() {
        OutboxStatsSnapshot adaptive = new OutboxStatsSnapshot(database, Duration.ofSeconds(2), Duration.ofSeconds(10));
        next.set(new OutboxStats(0, 1, 7, Duration.ZERO));

        adaptive.refresh();
        assertThat(adaptive.nextDelay()).as("one count says nothing about movement").isEqualTo(Duration.ofSeconds(2));
        adaptive.refresh();
        assertThat(adaptive.nextDelay()).as("nothing pending, nothing published since").isEqualTo(Duration.ofSeconds(10));

        next.set(new OutboxStats(0, 1, 9, Duration.ZERO));
        adaptive.refresh();
        assertThat(adaptive.nextDelay()).as("published since the count before").isEqualTo(Duration.ofSeconds(2));

        adaptive.refresh();
        assertThat(adaptive.nextDelay()).isEqualTo(Duration.ofSeconds(10));
        next.set(new OutboxStats(1, 1, 9, Duration.ofMillis(5)));
        adaptive.refresh();
        assertThat(adaptive.nextDelay()).as("a pending row").isEqualTo(Duration.ofSeconds(2));

        next.set(new OutboxStats(0, 1, 9, Duration.ZERO));
        adaptive.refresh();
        adaptive.refresh();
        assertThat(adaptive.nextDelay()).isEqualTo(Duration.ofSeconds(10));
        next.set(new IllegalStateException("database down"));
        adaptive.refresh();
        assertThat(adaptive.nextDelay()).as("a failed count is retried soon").isEqualTo(Duration.ofSeconds(2));
    }

    // --- following the outbox: a quiet instance counts rarely, a change on it shows within the refresh interval ---

    private static final Duration REFRESH = Duration.ofSeconds(2);
    private static final Duration IDLE = Duration.ofSeconds(10);
    private final ManualScheduler scheduler = new ManualScheduler();
    private final OutboxStatsSnapshot following = new OutboxStatsSnapshot(database, REFRESH, IDLE, () -> scheduler,
            scheduler::nanoTime);

    /**
     * Starts the snapshot on an outbox that stays quiet for an hour, until at most 100 ms after a count; returns the
     * queries so far.
     */
    private int quietHour() {
        next.set(new OutboxStats(0, 1, 7, Duration.ZERO));
        following.start();
        scheduler.advance(Duration.ofHours(1));
        int counted = queries.get();
        while (queries.get() == counted) {
            scheduler.advance(Duration.ofMillis(100));
        }
        return queries.get();
    }

    @Test
    void aQuietInstanceCountsOncePerIdleIntervalAndAChangeAfterAnHourOfQuietIsCountedAtOnce() {
        int quietHour = quietHour();
        assertThat(quietHour).as("one count per idle interval, far below one a second").isBetween(360, 363);
        scheduler.advance(Duration.ofSeconds(5)); // halfway to the next idle count

        next.set(new OutboxStats(1, 1, 7, Duration.ZERO)); // a commit on this instance wrote a pending row
        following.outboxChanged();
        scheduler.advance(Duration.ZERO);

        assertThat(queries).hasValue(quietHour + 1);
        assertThat(following.outboxStats().pending()).isEqualTo(1);
        assertThat(following.nextDelay()).as("not quiet while a row is pending").isEqualTo(REFRESH);
    }

    @Test
    void aChangeRightAfterACountIsCountedOneRefreshIntervalAfterThatCount() {
        int quietHour = quietHour(); // at most 100 ms after a count

        following.outboxChanged();
        scheduler.advance(REFRESH.minusMillis(101));
        assertThat(queries).as("counts stay a refresh interval apart").hasValue(quietHour);
        scheduler.advance(Duration.ofMillis(101));

        assertThat(queries).as("within the refresh interval of the change").hasValue(quietHour + 1);
    }

    @Test
    void manyChangesStillCountAtMostOncePerRefreshInterval() {
        int quietHour = quietHour();

        for (int i = 0; i < 10_000; i++) { // a change every millisecond for ten seconds
            following.outboxChanged();
            scheduler.advance(Duration.ofMillis(1));
        }

        assertThat(queries.get() - quietHour).as("ten seconds at one count per refresh interval at most")
                .isBetween(4, 5);
    }

    @Test
    void aChangeDuringACountKeepsTheNextCountSoon() {
        quietHour();
        next.set(new IllegalStateException("unused"));
        AtomicReference<Runnable> duringCount = new AtomicReference<>(() -> { });
        OutboxStatsSnapshot racing = new OutboxStatsSnapshot(() -> {
            duringCount.get().run(); // committed after the count's query read the table
            return new OutboxStats(0, 1, 7, Duration.ZERO);
        }, REFRESH, IDLE, () -> scheduler, scheduler::nanoTime);
        racing.refresh();
        racing.refresh();
        assertThat(racing.nextDelay()).as("quiet").isEqualTo(IDLE);

        duringCount.set(racing::outboxChanged);
        racing.refresh();

        assertThat(racing.nextDelay()).isEqualTo(REFRESH);
    }
}
