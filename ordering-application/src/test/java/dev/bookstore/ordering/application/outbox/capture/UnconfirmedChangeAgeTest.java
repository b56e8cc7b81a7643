package dev.bookstore.ordering.application.outbox.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The age of the oldest unconfirmed change from successive measurements of the slot, a WAL end and its time each. */
class UnconfirmedChangeAgeTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

    private final UnconfirmedChangeAge age = new UnconfirmedChangeAge();

    @Test
    void aSlotThatConfirmedTheWholeWalHasNothingWaiting() {
        assertThat(age.observe(lag(0, 1000, 1000, null))).isZero();
        assertThat(age.observe(lag(60, 1000, 1000, T0))).as("a quiet server: no WAL, nothing unconfirmed").isZero();
        assertThat(age.observe(CaptureLag.noSlot(T0.plusSeconds(70), 5000))).isZero();
    }

    @Test
    void unconfirmedWalAgesFromTheFirstMeasurementThatSawIt() {
        assertThat(age.observe(lag(0, 1000, 1000, null))).isZero();
        assertThat(age.observe(lag(5, 2000, 1000, null))).as("just seen").isZero();
        assertThat(age.observe(lag(10, 3000, 1000, null))).isEqualTo(Duration.ofSeconds(5));
        assertThat(age.observe(lag(20, 3000, 1000, null))).as("no new WAL, still unconfirmed")
                .isEqualTo(Duration.ofSeconds(15));

        assertThat(age.observe(lag(25, 4000, 2500, null)))
                .as("confirmed past what the first sighting saw, not past the second")
                .isEqualTo(Duration.ofSeconds(15));
        assertThat(age.observe(lag(30, 4000, 4000, null))).as("all confirmed").isZero();
    }

    @Test
    void aReaderThatKeepsUpStaysYoungAlthoughTheLagIsRarelyZero() {
        // other tables write WAL all the time; the reader confirms the end it heard of, its commit a little late
        long end = 0;
        for (int second = 0; second <= 120; second += 5) {
            end += 1000;
            long confirmed = end - 500;
            assertThat(age.observe(lag(second, end, confirmed, T0.plusSeconds(second - 3))))
                    .isEqualTo(Duration.ofSeconds(3));
        }
    }

    @Test
    void aStoppedReaderAgesEvenWhenThisInstanceStartedAfterItsLastCommit() {
        Instant lastCommit = T0.minus(Duration.ofMinutes(10));

        assertThat(age.observe(lag(0, 9000, 1000, lastCommit))).isEqualTo(Duration.ofMinutes(10));
        assertThat(age.observe(lag(30, 9500, 1000, lastCommit))).isEqualTo(Duration.ofMinutes(10).plusSeconds(30));
    }

    @Test
    void aLongWaitKeepsItsOldestSightingWhenTheSamplesAreThinned() {
        int measurements = UnconfirmedChangeAge.MAX_SAMPLES * 3;
        for (int i = 1; i <= measurements; i++) {
            age.observe(lag(i, 1000L + i, 1000, null));
        }

        assertThat(age.observe(lag(measurements + 1, 1000L + measurements + 1, 1000, null)))
                .isEqualTo(Duration.ofSeconds(measurements));
        Duration afterProgress = age.observe(lag(measurements + 2, 1000L + measurements + 2, 1000L + measurements / 2,
                null));
        assertThat(afterProgress).as("coarser, never younger than the truth by more than the thinning")
                .isBetween(Duration.ofSeconds(measurements / 2 - 8), Duration.ofSeconds(measurements / 2 + 2));
    }

    private static CaptureLag lag(int second, long walEnd, long confirmed, Instant confirmedAt) {
        return new CaptureLag(true, true, walEnd - confirmed, walEnd - confirmed, T0.plusSeconds(second), walEnd,
                confirmedAt);
    }
}
