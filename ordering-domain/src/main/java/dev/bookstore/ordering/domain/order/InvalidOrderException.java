package dev.bookstore.ordering.domain.order;

import dev.bookstore.ordering.domain.shared.OrderingException;
import java.util.Objects;

/** An order that breaks one of its invariants; {@link #field()} names the part of the order at fault. */
public class InvalidOrderException extends OrderingException {

    private final String field;

    public InvalidOrderException(String field, String message) {
        super(field + ": " + message);
        this.field = Objects.requireNonNull(field, "field");
    }

    public String field() {
        return field;
    }

    /** The message without the field prefix. */
    public String reason() {
        return getMessage().substring(field.length() + 2);
    }
}
