package dev.bookstore.ordering.application.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DeliveryFailureTest {

    private static final UUID ID = UUID.fromString("01959a3c-1b2d-7e4f-8a5b-6c7d8e9f0a1b");

    @Test
    void aFailureWithANextAttemptIsRetried() {
        Instant next = Instant.parse("2025-03-14T09:00:05Z");

        DeliveryFailure failure = DeliveryFailure.retryAt(ID, "RETURNED", next);

        assertThat(failure.parks()).isFalse();
        assertThat(failure.nextAttemptAt()).isEqualTo(next);
    }

    @Test
    void aFailureWithoutANextAttemptParks() {
        assertThat(DeliveryFailure.park(ID, "NACKED").parks()).isTrue();
    }

    @Test
    void aRetryNeedsATime() {
        assertThatNullPointerException().isThrownBy(() -> DeliveryFailure.retryAt(ID, "RETURNED", null));
    }

    @Test
    void aLongErrorIsCutToTheColumnSize() {
        DeliveryFailure failure = DeliveryFailure.park(ID, "e".repeat(DeliveryFailure.MAX_ERROR_LENGTH + 1));

        assertThat(failure.error()).hasSize(DeliveryFailure.MAX_ERROR_LENGTH);
        assertThat(DeliveryFailure.park(ID, "short").error()).isEqualTo("short");
    }
}
