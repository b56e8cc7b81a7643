package dev.bookstore.ordering.domain.shared;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.Objects;

/**
 * An amount of one currency. The scale of the amount never exceeds the currency's minor units
 * (two for EUR, zero for JPY), so a price such as {@code 9.999 EUR} cannot exist.
 */
public record Money(BigDecimal amount, Currency currency) {

    public Money {
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(currency, "currency");
        int minorUnits = Math.max(currency.getDefaultFractionDigits(), 0);
        BigDecimal stripped = amount.stripTrailingZeros();
        if (stripped.scale() > minorUnits) {
            throw new InvalidMoneyException("%s allows at most %d decimal place(s), got %s"
                    .formatted(currency.getCurrencyCode(), minorUnits, amount.toPlainString()));
        }
        amount = amount.setScale(minorUnits);
    }

    public static Money of(String amount, String currencyCode) {
        return new Money(new BigDecimal(amount), Currency.getInstance(currencyCode));
    }

    public static Money zero(Currency currency) {
        return new Money(BigDecimal.ZERO, currency);
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
