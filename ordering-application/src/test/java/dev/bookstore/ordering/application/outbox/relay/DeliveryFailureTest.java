package dev.bookstore.ordering.application.outbox.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DeliveryFailureTest {

    private static final UUID ID = UUID.fromString("01959a3c-1b2d-7e4f-8a5b-6c7d8e9f0a1b");

    @Test
    void aFailureWithADelayIsRetriedThatLongAfterItIsRecorded() {
        DeliveryFailure failure = DeliveryFailure.retryAfter(ID, "RETURNED", Duration.ofSeconds(5));

        assertThat(failure.parks()).isFalse();
        assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aFailureWithoutANextAttemptParks() {
        assertThat(DeliveryFailure.park(ID, "NACKED").parks()).isTrue();
    }

    @Test
    void aRetryNeedsADelayThatIsNotNegative() {
        assertThatNullPointerException().isThrownBy(() -> DeliveryFailure.retryAfter(ID, "RETURNED", null));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> DeliveryFailure.retryAfter(ID, "RETURNED", Duration.ofMillis(-1)));
        assertThat(DeliveryFailure.retryAfter(ID, "RETURNED", Duration.ZERO).parks()).isFalse();
    }

    @Test
    void aLongErrorIsCutToTheColumnSize() {
        DeliveryFailure failure = DeliveryFailure.park(ID, "e".repeat(DeliveryFailure.MAX_ERROR_LENGTH + 1));

        assertThat(failure.error()).hasSize(DeliveryFailure.MAX_ERROR_LENGTH);
        assertThat(DeliveryFailure.park(ID, "short").error()).isEqualTo("short");
    }
}
