package dev.bookstore.ordering.domain.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BookIdTest {

    @ParameterizedTest
    @ValueSource(strings = {"978-0134494166", "9780134494166", "the_pragmatic-programmer", "X", "a1_B2-c3"})
    void lettersDigitsHyphensAndUnderscoresAreABookId(String value) {
        assertThat(new BookId(value).value()).isEqualTo(value);
    }

    @Test
    void sixtyFourCharactersAreEnough() {
        String longest = "b".repeat(64);

        assertThat(new BookId(longest).value()).hasSize(64);
    }

    @Test
    void sixtyFiveCharactersAreTooMany() {
        assertThat(rejected("b".repeat(65)).field()).isEqualTo("bookId");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "978 0134494166", "978/0134494166", "café", "book.1", "-;DROP TABLE", "a\n"})
    void anythingElseIsRejectedAsBookId(String value) {
        assertThat(rejected(value).field()).isEqualTo("bookId");
    }

    @Test
    void aBookIdIsRequired() {
        assertThatNullPointerException().isThrownBy(() -> new BookId(null));
    }

    @Test
    void printsAsItsValue() {
        assertThat(new BookId("978-0134494166")).hasToString("978-0134494166");
    }

    private static InvalidOrderException rejected(String value) {
        Throwable thrown = catchThrowable(() -> new BookId(value));
        assertThat(thrown).isInstanceOf(InvalidOrderException.class);
        return (InvalidOrderException) thrown;
    }
}
