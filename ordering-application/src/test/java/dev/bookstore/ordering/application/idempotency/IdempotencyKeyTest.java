package dev.bookstore.ordering.application.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdempotencyKeyTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "8e03978e-40d5-43e8-bc93-6894a57f9324", "\"quoted\"", "!~{}[],;:=", "ABC-abc_123"})
    void visibleAsciiKeysAreKeptExactly(String value) {
        assertThat(new IdempotencyKey(value).value()).isEqualTo(value);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 254, 255})
    void keysOfOneTo255CharactersAreAccepted(int length) {
        assertThat(new IdempotencyKey("k".repeat(length)).value()).hasSize(length);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 256, 1000})
    void emptyOrLongerKeysAreRejectedWithTheirLength(int length) {
        assertThatThrownBy(() -> new IdempotencyKey("k".repeat(length)))
                .isInstanceOfSatisfying(InvalidIdempotencyKeyException.class, e -> assertThat(e.reason())
                        .isEqualTo("must be 1 to 255 characters, got " + length));
    }

    @ParameterizedTest
    @ValueSource(strings = {"with space", " leading", "trailing ", "tab\there", "new\nline", "caf\u00e9", "\u0000",
            "del\u007f", "emoji\ud83d\ude00"})
    void aKeyWithACharacterThatIsNotVisibleAsciiIsRejected(String value) {
        assertThatThrownBy(() -> new IdempotencyKey(value))
                .isInstanceOfSatisfying(InvalidIdempotencyKeyException.class, e -> assertThat(e.reason())
                        .startsWith("must be visible ASCII characters only (no spaces), found U+"));
    }

    @Test
    void theReasonNamesTheCharacterAndItsPositionButNotTheKey() {
        String value = "with space";

        assertThatThrownBy(() -> new IdempotencyKey(value))
                .isInstanceOfSatisfying(InvalidIdempotencyKeyException.class, e -> assertThat(e.reason())
                        .isEqualTo("must be visible ASCII characters only (no spaces), found U+0020 at position 4")
                        .doesNotContain(value));
    }
}
