package dev.bookstore.ordering.domain.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bookstore.ordering.domain.shared.Money;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OrderLineTest {

    private static final BookId BOOK = new BookId("978-0134494166");
    private static final Money PRICE = Money.of("9.99", "EUR");

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 999, 1000})
    void quantitiesFromOneToOneThousandAreAccepted(int quantity) {
        assertThat(new OrderLine(BOOK, quantity, PRICE).quantity()).isEqualTo(quantity);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 1001, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void quantitiesOutsideOneToOneThousandAreRejected(int quantity) {
        InvalidOrderException rejected = rejected(() -> new OrderLine(BOOK, quantity, PRICE));

        assertThat(rejected.field()).isEqualTo("quantity");
        assertThat(rejected.reason()).contains(String.valueOf(quantity));
    }

    @Test
    void aFreeBookIsRejected() {
        assertThat(rejected(() -> new OrderLine(BOOK, 1, Money.of("0.00", "EUR"))).field()).isEqualTo("unitPrice");
    }

    @Test
    void aNegativePriceIsRejected() {
        assertThat(rejected(() -> new OrderLine(BOOK, 1, Money.of("-9.99", "EUR"))).field()).isEqualTo("unitPrice");
    }

    @Test
    void theSmallestPriceOfTheCurrencyIsAccepted() {
        assertThat(new OrderLine(BOOK, 1, Money.of("0.01", "EUR")).unitPrice()).isEqualTo(Money.of("0.01", "EUR"));
        assertThat(new OrderLine(BOOK, 1, Money.of("1", "JPY")).unitPrice()).isEqualTo(Money.of("1", "JPY"));
    }

    @Test
    void aUnitPriceHasAtMostTenDigitsBeforeTheDecimalPoint() {
        assertThat(new OrderLine(BOOK, 1, Money.of("9999999999.99", "EUR")).unitPrice())
                .isEqualTo(Money.of("9999999999.99", "EUR"));

        InvalidOrderException rejected = rejected(() -> new OrderLine(BOOK, 1, Money.of("10000000000", "EUR")));

        assertThat(rejected.field()).isEqualTo("unitPrice");
        assertThat(rejected.reason()).isEqualTo(
                "must have at most 10 digits before the decimal point, got 10000000000.00 EUR");
    }

    @Test
    void lineTotalIsUnitPriceTimesQuantity() {
        assertThat(new OrderLine(BOOK, 3, PRICE).lineTotal()).isEqualTo(Money.of("29.97", "EUR"));
        assertThat(new OrderLine(BOOK, 1, PRICE).lineTotal()).isEqualTo(PRICE);
    }

    @Test
    void bookAndPriceAreRequired() {
        assertThatNullPointerException().isThrownBy(() -> new OrderLine(null, 1, PRICE)).withMessage("bookId");
        assertThatNullPointerException().isThrownBy(() -> new OrderLine(BOOK, 1, null)).withMessage("unitPrice");
    }

    private static InvalidOrderException rejected(Runnable construction) {
        Throwable thrown = catchThrowable(construction::run);
        assertThat(thrown).isInstanceOf(InvalidOrderException.class);
        return (InvalidOrderException) thrown;
    }
}
