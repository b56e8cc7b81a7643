package dev.bookstore.ordering.domain.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidV7Test {

    private static final Instant NOW = Instant.parse("2025-03-14T09:26:53.589Z");

    @Test
    void isVersion7WithTheRfcVariant() {
        for (int i = 0; i < 1_000; i++) {
            UUID id = UuidV7.at(NOW.plusMillis(i));

            assertThat(id.version()).isEqualTo(7);
            assertThat(id.variant()).isEqualTo(2);
        }
    }

    @Test
    void theFirst48BitsAreTheUnixMilliseconds() {
        UUID id = UuidV7.at(Instant.ofEpochMilli(0x0123_4567_89ABL));

        assertThat(id.toString()).startsWith("01234567-89ab-7");
    }

    @Test
    void timestampOfReturnsTheInstantTheIdWasMadeAt() {
        assertThat(UuidV7Timestamps.timestampOf(UuidV7.at(NOW))).isEqualTo(NOW);
    }

    @Test
    void timestampOfKeepsMillisecondsOnly() {
        Instant withNanos = Instant.parse("2025-03-14T09:26:53.589793238Z");

        assertThat(UuidV7Timestamps.timestampOf(UuidV7.at(withNanos))).isEqualTo(withNanos.truncatedTo(ChronoUnit.MILLIS));
    }

    @Test
    void timestampOfRejectsOtherVersions() {
        assertThatIllegalArgumentException().isThrownBy(() -> UuidV7Timestamps.timestampOf(UUID.randomUUID()))
                .withMessageContaining("version 7");
    }

    @Test
    void idsMadeLaterSortAfterEarlierOnes() {
        List<UUID> inCreationOrder = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            inCreationOrder.add(UuidV7.at(NOW.plusMillis(i)));
        }
        List<UUID> shuffled = new ArrayList<>(inCreationOrder);
        Collections.shuffle(shuffled, new Random(42));

        List<UUID> byCompareTo = new ArrayList<>(shuffled);
        Collections.sort(byCompareTo);
        // databases compare uuids as unsigned bytes, which is the order of their text form
        List<UUID> byText = new ArrayList<>(shuffled);
        byText.sort(Comparator.comparing(UUID::toString));

        assertThat(byCompareTo).containsExactlyElementsOf(inCreationOrder);
        assertThat(byText).containsExactlyElementsOf(inCreationOrder);
    }

    @Test
    void idsMadeInTheSameMillisecondDiffer() {
        Set<UUID> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(UuidV7.at(NOW));
        }

        assertThat(ids).hasSize(10_000);
    }
}
