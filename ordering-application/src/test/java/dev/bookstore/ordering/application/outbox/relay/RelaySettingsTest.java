package dev.bookstore.ordering.application.outbox.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RelaySettingsTest {

    private static final Backoff BACKOFF = Backoff.exponential(Duration.ofSeconds(1), Duration.ofMinutes(5));
    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(5);

    @Test
    void sensibleSettingsAreAccepted() {
        RelaySettings settings = new RelaySettings("relay-1", 100, Duration.ofSeconds(30), CONFIRM_TIMEOUT, 10,
                BACKOFF, true, 3, RelaySettings.Unroutable.RETRY);

        assertThat(settings.batchSize()).isEqualTo(100);
        assertThat(settings.ordered()).isTrue();
    }

    @Test
    void negativeChannelErrorRetriesAndAMissingUnroutableChoiceAreRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new RelaySettings("relay-1", 1, Duration.ofSeconds(30), CONFIRM_TIMEOUT, 10,
                        BACKOFF, false, -1, RelaySettings.Unroutable.PARK))
                .withMessageContaining("channelErrorRetries");
        assertThatNullPointerException()
                .isThrownBy(() -> new RelaySettings("relay-1", 1, Duration.ofSeconds(30), CONFIRM_TIMEOUT, 10,
                        BACKOFF, false, 0, null))
                .withMessageContaining("unroutable");
    }

    @Test
    void aBatchSizeOfZeroIsRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new RelaySettings("relay-1", 0, Duration.ofSeconds(30), CONFIRM_TIMEOUT, 10,
                        BACKOFF, false, 3, RelaySettings.Unroutable.RETRY))
                .withMessageContaining("batchSize");
    }

    @Test
    void aBatchOfOneIsEnough() {
        assertThat(new RelaySettings("relay-1", 1, Duration.ofSeconds(30), CONFIRM_TIMEOUT, 10, BACKOFF, false, 3, RelaySettings.Unroutable.RETRY)
                .batchSize()).isEqualTo(1);
    }

    @Test
    void zeroMaxAttemptsAreRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new RelaySettings("relay-1", 100, Duration.ofSeconds(30), CONFIRM_TIMEOUT, 0,
                        BACKOFF, false, 3, RelaySettings.Unroutable.RETRY))
                .withMessageContaining("maxAttempts");
    }

    @Test
    void aLeaseShorterThanTwiceTheConfirmTimeoutIsRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new RelaySettings("relay-1", 100, Duration.ofMillis(9_999), CONFIRM_TIMEOUT, 10,
                        BACKOFF, false, 3, RelaySettings.Unroutable.RETRY))
                .withMessageContaining("lease");
    }

    @Test
    void aLeaseOfExactlyTwiceTheConfirmTimeoutIsAccepted() {
        RelaySettings settings = new RelaySettings("relay-1", 100, Duration.ofSeconds(10), CONFIRM_TIMEOUT, 10,
                BACKOFF, false, 3, RelaySettings.Unroutable.RETRY);

        assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void everyReferenceIsRequired() {
        Duration lease = Duration.ofSeconds(30);
        assertThatNullPointerException()
                .isThrownBy(() -> new RelaySettings(null, 1, lease, CONFIRM_TIMEOUT, 1, BACKOFF, false, 3, RelaySettings.Unroutable.RETRY));
        assertThatNullPointerException()
                .isThrownBy(() -> new RelaySettings("relay-1", 1, null, CONFIRM_TIMEOUT, 1, BACKOFF, false, 3, RelaySettings.Unroutable.RETRY));
        assertThatNullPointerException()
                .isThrownBy(() -> new RelaySettings("relay-1", 1, lease, null, 1, BACKOFF, false, 3, RelaySettings.Unroutable.RETRY));
        assertThatNullPointerException()
                .isThrownBy(() -> new RelaySettings("relay-1", 1, lease, CONFIRM_TIMEOUT, 1, null, false, 3, RelaySettings.Unroutable.RETRY));
    }
}
