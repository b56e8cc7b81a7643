package dev.bookstore.ordering.application.outbox.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BackoffTest {

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Duration MINUTE = Duration.ofMinutes(1);

    @ParameterizedTest(name = "after failure {0} the ceiling is {1} ms")
    @CsvSource({"1, 1000", "2, 2000", "3, 4000", "4, 8000", "5, 16000", "6, 32000", "7, 60000", "8, 60000"})
    void theCeilingDoublesWithEveryFailureUpToTheMaximum(int failures, long ceilingMillis) {
        Backoff alwaysTheCeiling = new Backoff(SECOND, MINUTE, () -> 1.0);

        assertThat(alwaysTheCeiling.delayAfter(failures)).isEqualTo(Duration.ofMillis(ceilingMillis));
    }

    @ParameterizedTest(name = "after failure {0} the floor is {1} ms")
    @CsvSource({"1, 500", "2, 1000", "3, 2000", "7, 30000", "100, 30000"})
    void theDelayIsNeverBelowHalfTheCeiling(int failures, long floorMillis) {
        Backoff alwaysTheFloor = new Backoff(SECOND, MINUTE, () -> 0.0);

        assertThat(alwaysTheFloor.delayAfter(failures)).isEqualTo(Duration.ofMillis(floorMillis));
    }

    @Test
    void theJitterSpreadsTheDelayBetweenHalfAndAllOfTheCeiling() {
        Backoff threeQuarters = new Backoff(SECOND, MINUTE, () -> 0.5);

        assertThat(threeQuarters.delayAfter(1)).isEqualTo(Duration.ofMillis(750));
        assertThat(threeQuarters.delayAfter(3)).isEqualTo(Duration.ofMillis(3000));
        assertThat(threeQuarters.delayAfter(10)).isEqualTo(Duration.ofMillis(45_000));
    }

    @Test
    void anOddCeilingStillStaysWithinItsBounds() {
        Duration initial = Duration.ofMillis(1001);

        assertThat(new Backoff(initial, MINUTE, () -> 0.0).delayAfter(1)).isEqualTo(Duration.ofMillis(500));
        assertThat(new Backoff(initial, MINUTE, () -> 1.0).delayAfter(1)).isEqualTo(Duration.ofMillis(1001));
    }

    @Test
    void aMaximumThatIsNotAPowerOfTwoOfTheInitialDelayCapsTheCeiling() {
        Backoff backoff = new Backoff(SECOND, Duration.ofSeconds(5), () -> 1.0);

        assertThat(backoff.delayAfter(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(backoff.delayAfter(4)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void manyFailuresDoNotOverflow() {
        Backoff backoff = new Backoff(SECOND, Duration.ofHours(1), () -> 1.0);

        assertThat(backoff.delayAfter(64)).isEqualTo(Duration.ofHours(1));
        assertThat(backoff.delayAfter(Integer.MAX_VALUE)).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void noFailuresYetCountsAsTheFirst() {
        Backoff backoff = new Backoff(SECOND, MINUTE, () -> 1.0);

        assertThat(backoff.delayAfter(0)).isEqualTo(SECOND);
        assertThat(backoff.delayAfter(-3)).isEqualTo(SECOND);
    }

    @Test
    void theDefaultRandomJitterStaysWithinTheBoundsAndVaries() {
        Backoff backoff = Backoff.exponential(SECOND, MINUTE);
        Set<Duration> seen = new HashSet<>();

        for (int i = 0; i < 1_000; i++) {
            Duration delay = backoff.delayAfter(3);
            assertThat(delay).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(4));
            seen.add(delay);
        }

        assertThat(seen).hasSizeGreaterThan(100);
    }

    @Test
    void theInitialDelayMustBePositive() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Backoff(Duration.ZERO, MINUTE, () -> 0.5));
        assertThatIllegalArgumentException().isThrownBy(() -> new Backoff(SECOND.negated(), MINUTE, () -> 0.5));
    }

    @Test
    void theMaximumMustNotBeBelowTheInitialDelay() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Backoff(MINUTE, SECOND, () -> 0.5));
        assertThat(new Backoff(SECOND, SECOND, () -> 1.0).delayAfter(10)).isEqualTo(SECOND);
    }

    @Test
    void everyPartIsRequired() {
        assertThatNullPointerException().isThrownBy(() -> new Backoff(null, MINUTE, () -> 0.5));
        assertThatNullPointerException().isThrownBy(() -> new Backoff(SECOND, null, () -> 0.5));
        assertThatNullPointerException().isThrownBy(() -> new Backoff(SECOND, MINUTE, null));
    }
}
