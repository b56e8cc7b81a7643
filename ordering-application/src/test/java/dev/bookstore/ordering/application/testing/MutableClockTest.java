package dev.bookstore.ordering.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class MutableClockTest {

    private final MutableClock clock = MutableClock.at("2025-03-14T09:00:00Z");

    @Test
    void standsStillUntilMoved() {
        assertThat(clock.instant()).isEqualTo(Instant.parse("2025-03-14T09:00:00Z"));
        assertThat(clock.instant()).isEqualTo(Instant.parse("2025-03-14T09:00:00Z"));
        assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
    }

    @Test
    void advancesAndIsSet() {
        assertThat(clock.advance(Duration.ofSeconds(90))).isEqualTo(Instant.parse("2025-03-14T09:01:30Z"));
        assertThat(clock.millis()).isEqualTo(Instant.parse("2025-03-14T09:01:30Z").toEpochMilli());

        clock.set(Instant.parse("2030-01-01T00:00:00Z"));
        assertThat(clock.instant()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    }

    @Test
    void aClockInAnotherZoneSharesTheTime() {
        Clock paris = clock.withZone(ZoneId.of("Europe/Paris"));

        clock.advance(Duration.ofHours(1));

        assertThat(paris.instant()).isEqualTo(clock.instant());
        assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
    }
}
