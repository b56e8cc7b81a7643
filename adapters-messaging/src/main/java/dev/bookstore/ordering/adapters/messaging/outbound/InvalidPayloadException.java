package dev.bookstore.ordering.adapters.messaging.outbound;

/** A message body that does not follow its contract; redelivering it would not help. */
public class InvalidPayloadException extends IllegalArgumentException {

    public InvalidPayloadException(String message, Throwable cause) {
        super(message, cause);
    }
}
