package dev.bookstore.ordering.domain.order;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A book of the catalogue, by its catalogue key: 1 to 64 characters of letters, digits, {@code -} and
 * {@code _} (an ISBN-13 such as {@code 978-0134494166} fits).
 */
public record BookId(String value) {

    private static final Pattern FORMAT = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public BookId {
        Objects.requireNonNull(value, "value");
        if (!FORMAT.matcher(value).matches()) {
            throw new InvalidOrderException("bookId", "must be 1-64 letters, digits, '-' or '_'");
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
