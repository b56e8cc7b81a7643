package dev.bookstore.ordering.domain.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Currency;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MoneyTest {

    private static final Currency EUR = Currency.getInstance("EUR");
    private static final Currency JPY = Currency.getInstance("JPY");

    @Test
    void anAmountWithAsManyDecimalsAsTheCurrencyAllowsIsAccepted() {
        Money price = Money.of("9.99", "EUR");

        assertThat(price.amount()).isEqualByComparingTo("9.99");
        assertThat(price.currency()).isEqualTo(EUR);
    }

    @Test
    void anAmountWithMoreDecimalsThanTheCurrencyAllowsIsRejected() {
        assertThatThrownBy(() -> Money.of("9.999", "EUR"))
                .isInstanceOf(InvalidMoneyException.class)
                .hasMessageContaining("EUR")
                .hasMessageContaining("9.999");
    }

    @Test
    void trailingZerosBeyondTheMinorUnitsAreNotExtraPrecision() {
        assertThat(Money.of("9.990", "EUR")).isEqualTo(Money.of("9.99", "EUR"));
    }

    @Test
    void theAmountIsKeptAtTheScaleOfTheCurrency() {
        assertThat(Money.of("5", "EUR").amount().toPlainString()).isEqualTo("5.00");
        assertThat(Money.of("5.1", "EUR").amount().toPlainString()).isEqualTo("5.10");
        assertThat(new Money(new BigDecimal("1E+3"), EUR).amount().toPlainString()).isEqualTo("1000.00");
    }

    @Test
    void amountsThatDifferOnlyInTrailingZerosAreEqual() {
        assertThat(Money.of("5", "EUR")).isEqualTo(Money.of("5.00", "EUR"));
        assertThat(Money.of("5", "EUR")).hasSameHashCodeAs(Money.of("5.00", "EUR"));
    }

    @Test
    void yenHasNoMinorUnits() {
        Money price = Money.of("1500", "JPY");

        assertThat(price.amount().scale()).isZero();
        assertThat(price.amount().toPlainString()).isEqualTo("1500");
        assertThat(Money.of("1500.0", "JPY")).isEqualTo(price);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5", "0.01", "1500.001"})
    void yenWithDecimalsIsRejected(String amount) {
        assertThatThrownBy(() -> Money.of(amount, "JPY"))
                .isInstanceOf(InvalidMoneyException.class)
                .hasMessageContaining("JPY");
    }

    @Test
    void plusAddsAmountsOfTheSameCurrency() {
        assertThat(Money.of("9.99", "EUR").plus(Money.of("0.01", "EUR"))).isEqualTo(Money.of("10.00", "EUR"));
        assertThat(Money.of("100", "JPY").plus(Money.of("250", "JPY"))).isEqualTo(Money.of("350", "JPY"));
    }

    @Test
    void timesMultipliesTheAmount() {
        assertThat(Money.of("9.99", "EUR").times(3)).isEqualTo(Money.of("29.97", "EUR"));
        assertThat(Money.of("9.99", "EUR").times(1000)).isEqualTo(Money.of("9990.00", "EUR"));
        assertThat(Money.of("120", "JPY").times(0)).isEqualTo(Money.zero(JPY));
    }

    @Test
    void addingDifferentCurrenciesIsRejected() {
        Money euros = Money.of("1.00", "EUR");
        Money dollars = Money.of("1.00", "USD");

        assertThatThrownBy(() -> euros.plus(dollars))
                .isInstanceOf(InvalidMoneyException.class)
                .hasMessageContaining("USD")
                .hasMessageContaining("EUR");
    }

    @Test
    void zeroIsZeroInTheGivenCurrency() {
        Money zero = Money.zero(EUR);

        assertThat(zero.amount()).isEqualByComparingTo(BigDecimal.ZERO);
        assertThat(zero.currency()).isEqualTo(EUR);
        assertThat(zero.isPositive()).isFalse();
    }

    @Test
    void onlyAmountsAboveZeroArePositive() {
        assertThat(Money.of("0.01", "EUR").isPositive()).isTrue();
        assertThat(Money.of("0", "EUR").isPositive()).isFalse();
        assertThat(Money.of("-0.01", "EUR").isPositive()).isFalse();
    }

    @Test
    void amountAndCurrencyAreRequired() {
        assertThatNullPointerException().isThrownBy(() -> new Money(null, EUR)).withMessage("amount");
        assertThatNullPointerException().isThrownBy(() -> new Money(BigDecimal.ONE, null)).withMessage("currency");
    }

    @Test
    void printsAsPlainAmountAndCurrencyCode() {
        assertThat(Money.of("1E+2", "EUR")).hasToString("100.00 EUR");
        assertThat(Money.of("9.99", "EUR")).hasToString("9.99 EUR");
    }
}
