package dev.bookstore.ordering.domain.shared;

/** An amount that does not fit its currency, or arithmetic across two currencies. */
public class InvalidMoneyException extends OrderingException {

    public InvalidMoneyException(String message) {
        super(message);
    }
}
