package dev.bookstore.ordering.application.outbox.relay;

import java.util.Objects;
import java.util.UUID;

/** What the broker said about one message of a batch. */
public record PublishResult(UUID messageId, Outcome outcome, String detail) {

    public PublishResult {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(outcome, "outcome");
    }

    public static PublishResult confirmed(UUID messageId) {
        return new PublishResult(messageId, Outcome.CONFIRMED, null);
    }

    public enum Outcome {
        /** The broker took responsibility for the message (publisher confirm ack, not returned). */
        CONFIRMED,
        /** The broker refused the message (confirm nack). */
        NACKED,
        /** No queue took the mandatory message (basic.return), e.g. no binding for its routing key. */
        RETURNED,
        /** No confirm arrived before the deadline. */
        TIMED_OUT,
        /** The connection or channel was unavailable or closed before the confirm. */
        BROKER_UNAVAILABLE,
        /**
         * The broker closed the channel before the confirm because it refused something sent on it (e.g. 406
         * PRECONDITION_FAILED for an invalid header): possibly this message's fault, possibly another one's of the
         * same batch. The relay retries a bounded number of times, then finds and charges the one to blame.
         */
        CHANNEL_CLOSED
    }
}
