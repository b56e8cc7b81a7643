package dev.bookstore.ordering.domain.shared;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.Objects;

/**
 * An amount of one currency. The scale of the amount never exceeds the currency's minor units
 * (two for EUR, zero for JPY), so a price such as {@code 9.999 EUR} cannot exist.
 *
 * <p>Amounts are bounded: at most {@value #MAX_DIGITS} digits as written and at most
 * {@value #MAX_INTEGER_DIGITS} digits before the decimal point. The bounds are checked on the number as given,
 * before anything rescales it: {@code 1E+999999999} is two small integers, but rescaled to cents it would be a
 * billion digits, and that would cost seconds of CPU.
 */
public record Money(BigDecimal amount, Currency currency) {

    /** Digits before the decimal point: every amount is below 10^15 (an order total fits with room to spare). */
    public static final int MAX_INTEGER_DIGITS = 15;

    /** Digits an amount may be written with, trailing zeros included ({@code 39.900} has five). */
    public static final int MAX_DIGITS = 40;

    /** 10^40 - 1 needs 133 bits: an unscaled value with more bits has more than {@link #MAX_DIGITS} digits. */
    private static final int MAX_DIGITS_BITS = 133;

    /** Amounts are shown in full in messages only up to this scale; beyond it in scientific notation. */
    private static final int MAX_SHOWN_SCALE = 50;

    public Money {
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(currency, "currency");
        int minorUnits = minorUnits(currency);
        if (digits(amount) > MAX_DIGITS) {
            throw new InvalidMoneyException("an amount has at most %d digits".formatted(MAX_DIGITS));
        }
        if (integerDigits(amount) > MAX_INTEGER_DIGITS) {
            throw new InvalidMoneyException("an amount has at most %d digits before the decimal point, got %s"
                    .formatted(MAX_INTEGER_DIGITS, shown(amount)));
        }
        if (decimalPlaces(amount) > minorUnits) {
            throw new InvalidMoneyException("%s allows at most %d decimal place(s), got %s"
                    .formatted(currency.getCurrencyCode(), minorUnits, shown(amount)));
        }
        // Safe now: the scale moves by at most MAX_DIGITS + MAX_INTEGER_DIGITS places.
        amount = amount.signum() == 0 ? BigDecimal.ZERO.setScale(minorUnits) : amount.setScale(minorUnits);
    }

    public static Money of(String amount, String currencyCode) {
        return new Money(new BigDecimal(amount), Currency.getInstance(currencyCode));
    }

    public static Money zero(Currency currency) {
        return new Money(BigDecimal.ZERO, currency);
    }

    /** Decimal places of the currency: 2 for EUR, 0 for JPY, and 0 for codes without minor units (XAU). */
    public static int minorUnits(Currency currency) {
        return Math.max(currency.getDefaultFractionDigits(), 0);
    }

    /**
     * The number of digits {@code number} is written with (its precision), or {@code MAX_DIGITS + 1} for anything
     * longer than {@link #MAX_DIGITS}. Cheap for any input: the precision of a number with a million digits would
     * be found by computing 10^1000000.
     */
    public static int digits(BigDecimal number) {
        if (number.unscaledValue().bitLength() > MAX_DIGITS_BITS) {
            return MAX_DIGITS + 1;
        }
        return number.precision();
    }

    /**
     * Digits before the decimal point ({@code 0} for zero and for amounts below one), computed from precision and
     * scale without expanding the number: {@code 1E+999999999} has 1,000,000,000. Call it on numbers of at most
     * {@link #MAX_DIGITS} {@link #digits(BigDecimal) digits}.
     */
    public static long integerDigits(BigDecimal number) {
        if (number.signum() == 0) {
            return 0;
        }
        return Math.max((long) number.precision() - number.scale(), 0);
    }

    /**
     * Decimal places that matter: trailing zeros are not precision ({@code 9.990} has two). Call it on numbers of
     * at most {@link #MAX_DIGITS} {@link #digits(BigDecimal) digits}.
     */
    public static int decimalPlaces(BigDecimal number) {
        if (number.signum() == 0) {
            return 0;
        }
        return Math.max(number.stripTrailingZeros().scale(), 0);
    }

    /** {@code number} for a message: in full where that is short, else in scientific notation ({@code 1E-400}). */
    public static String shown(BigDecimal number) {
        if (digits(number) > MAX_DIGITS) {
            return "a number of more than %d digits".formatted(MAX_DIGITS);
        }
        return Math.abs((long) number.scale()) <= MAX_SHOWN_SCALE ? number.toPlainString() : number.toString();
    }

    public Money plus(Money other) {
        requireSameCurrency(other);
        return new Money(amount.add(other.amount), currency);
    }

    public Money times(int factor) {
        return new Money(amount.multiply(BigDecimal.valueOf(factor)), currency);
    }

    public boolean isPositive() {
        return amount.signum() > 0;
    }

    private void requireSameCurrency(Money other) {
        if (!currency.equals(other.currency)) {
            throw new InvalidMoneyException("cannot add %s to %s".formatted(other.currency, currency));
        }
    }

    @Override
    public String toString() {
        return amount.toPlainString() + " " + currency.getCurrencyCode();
    }
}
