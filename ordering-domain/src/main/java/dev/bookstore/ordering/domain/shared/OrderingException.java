package dev.bookstore.ordering.domain.shared;

/** Root of every exception the domain throws when a rule is broken. */
public abstract class OrderingException extends RuntimeException {

    protected OrderingException(String message) {
        super(message);
    }
}
