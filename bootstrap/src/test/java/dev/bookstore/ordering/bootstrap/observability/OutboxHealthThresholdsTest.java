package dev.bookstore.ordering.bootstrap.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;

class OutboxHealthThresholdsTest {

    private final OutboxHealthThresholds thresholds =
            new OutboxHealthThresholds(Duration.ofSeconds(10), Duration.ofSeconds(60));

    private static OutboxStats pendingFor(long pending, Duration age) {
        return new OutboxStats(pending, 0, 0, age);
    }

    @Test
    void anEmptyOutboxIsUp() {
        assertThat(thresholds.classify(pendingFor(0, Duration.ZERO))).isEqualTo(Status.UP);
    }

    @Test
    void aBacklogYoungerThanTheFirstThresholdIsUpWhateverItsSize() {
        assertThat(thresholds.classify(pendingFor(1_000_000, Duration.ofSeconds(9)))).isEqualTo(Status.UP);
    }

    @Test
    void exactlyAtAThresholdIsStillTheBetterStatus() {
        assertThat(thresholds.classify(pendingFor(1, Duration.ofSeconds(10)))).isEqualTo(Status.UP);
        assertThat(thresholds.classify(pendingFor(1, Duration.ofSeconds(60))))
                .isEqualTo(OutboxHealthThresholds.DEGRADED);
    }

    @Test
    void olderThanDegradedAfterIsDegraded() {
        assertThat(thresholds.classify(pendingFor(1, Duration.ofMillis(10_001))))
                .isEqualTo(OutboxHealthThresholds.DEGRADED);
        assertThat(OutboxHealthThresholds.DEGRADED.getCode()).isEqualTo("DEGRADED");
    }

    @Test
    void olderThanDownAfterIsDown() {
        assertThat(thresholds.classify(pendingFor(1, Duration.ofMillis(60_001)))).isEqualTo(Status.DOWN);
    }

    @Test
    void parkedMessagesAloneDoNotChangeTheStatus() {
        assertThat(thresholds.classify(new OutboxStats(0, 50, 10, Duration.ZERO))).isEqualTo(Status.UP);
    }

    @Test
    void anAgeWithNothingPendingIsIgnored() {
        assertThat(thresholds.classify(pendingFor(0, Duration.ofMinutes(5)))).isEqualTo(Status.UP);
    }

    @Test
    void thresholdsMustBeOrdered() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OutboxHealthThresholds(Duration.ofSeconds(60), Duration.ofSeconds(10)));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OutboxHealthThresholds(Duration.ofSeconds(10), Duration.ofSeconds(10)));
    }
}
