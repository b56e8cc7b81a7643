package dev.bookstore.ordering.domain.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
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

    @Test
    void theLargestAmountHasFifteenDigitsBeforeTheDecimalPoint() {
        assertThat(Money.of("999999999999999.99", "EUR").amount().toPlainString()).isEqualTo("999999999999999.99");
        assertThat(Money.of("-999999999999999.99", "EUR").isPositive()).isFalse();

        assertThatThrownBy(() -> Money.of("1000000000000000", "EUR"))
                .isInstanceOf(InvalidMoneyException.class)
                .hasMessageContaining("at most 15 digits before the decimal point");
        assertThatThrownBy(() -> Money.of("-1000000000000000", "EUR")).isInstanceOf(InvalidMoneyException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1E+400", "1E+999999999", "-1E+999999999", "9.99E+2147483647"})
    void aHugeExponentIsRejectedBeforeAnythingRescalesIt(String amount) {
        // Rescaling 1E+999999999 to cents would write a billion digits; the check must not.
        BigDecimal number = new BigDecimal(amount);

        Throwable thrown = assertTimeoutPreemptively(Duration.ofSeconds(1),
                () -> catchThrowable(() -> new Money(number, EUR)));

        assertThat(thrown).isInstanceOf(InvalidMoneyException.class)
                .hasMessageContaining("digits before the decimal point")
                .hasMessageContaining(number.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1E-400", "1E-999999999", "-1E-999999999", "1E-2147483647"})
    void aTinyExponentIsRejectedAsTooManyDecimalPlacesAndShownInScientificNotation(String amount) {
        BigDecimal number = new BigDecimal(amount);

        Throwable thrown = assertTimeoutPreemptively(Duration.ofSeconds(1),
                () -> catchThrowable(() -> new Money(number, EUR)));

        assertThat(thrown).isInstanceOf(InvalidMoneyException.class)
                .hasMessage("EUR allows at most 2 decimal place(s), got " + number);
    }

    @Test
    void anAmountOfMoreThanFortyDigitsIsRejectedWithoutCountingThemAll() {
        assertThatThrownBy(() -> Money.of("1." + "0".repeat(40), "EUR"))
                .isInstanceOf(InvalidMoneyException.class)
                .hasMessage("an amount has at most 40 digits");

        // 1.2 million digits: counting them exactly would mean computing 10^1200000.
        BigDecimal enormous = new BigDecimal(BigInteger.ONE.shiftLeft(4_000_000), 4_000_000);
        Throwable thrown = assertTimeoutPreemptively(Duration.ofSeconds(1),
                () -> catchThrowable(() -> new Money(enormous, EUR)));
        assertThat(thrown).isInstanceOf(InvalidMoneyException.class).hasMessage("an amount has at most 40 digits");
    }

    @Test
    void fortyDigitsWithTrailingZerosAreAccepted() {
        assertThat(Money.of("39.9" + "0".repeat(37), "EUR")).isEqualTo(Money.of("39.90", "EUR"));
    }

    @Test
    void zeroWithAnyExponentIsZero() {
        assertThat(new Money(new BigDecimal("0E+999999999"), EUR)).isEqualTo(Money.zero(EUR));
        assertThat(new Money(new BigDecimal("0E-999999999"), EUR)).isEqualTo(Money.zero(EUR));
        assertThat(new Money(new BigDecimal("0E-999999999"), EUR).amount().scale()).isEqualTo(2);
    }

    @Test
    void arithmeticBeyondTheBoundIsRejected() {
        Money largest = Money.of("999999999999999.99", "EUR");

        assertThatThrownBy(() -> largest.plus(Money.of("0.01", "EUR"))).isInstanceOf(InvalidMoneyException.class);
        assertThatThrownBy(() -> largest.times(2)).isInstanceOf(InvalidMoneyException.class);
    }

    @Test
    void digitsAreCountedCheaplyAndCappedJustAboveTheBound() {
        assertThat(Money.digits(new BigDecimal("39.90"))).isEqualTo(4);
        assertThat(Money.digits(new BigDecimal("1E+999999999"))).isEqualTo(1);
        assertThat(Money.digits(new BigDecimal("9".repeat(40)))).isEqualTo(40);
        assertThat(Money.digits(new BigDecimal("9".repeat(41)))).isEqualTo(41);
        assertThat(Money.digits(new BigDecimal(BigInteger.ONE.shiftLeft(4_000_000)))).isEqualTo(41);
    }

    @Test
    void integerDigitsAndDecimalPlacesComeFromPrecisionAndScale() {
        assertThat(Money.integerDigits(new BigDecimal("39.90"))).isEqualTo(2);
        assertThat(Money.integerDigits(new BigDecimal("0.05"))).isZero();
        assertThat(Money.integerDigits(new BigDecimal("0E+50"))).isZero();
        assertThat(Money.integerDigits(new BigDecimal("1E+999999999"))).isEqualTo(1_000_000_000L);
        assertThat(Money.decimalPlaces(new BigDecimal("39.900"))).isEqualTo(1);
        assertThat(Money.decimalPlaces(new BigDecimal("1E+3"))).isZero();
        assertThat(Money.decimalPlaces(new BigDecimal("1E-999999999"))).isEqualTo(999_999_999);
    }

    @Test
    void numbersAreShownInFullOnlyWhereThatIsShort() {
        assertThat(Money.shown(new BigDecimal("39.901"))).isEqualTo("39.901");
        assertThat(Money.shown(new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(Money.shown(new BigDecimal("1E-400"))).isEqualTo("1E-400");
        assertThat(Money.shown(new BigDecimal("1E+999999999"))).isEqualTo("1E+999999999");
        assertThat(Money.shown(new BigDecimal("9".repeat(41)))).isEqualTo("a number of more than 40 digits");
    }
}
