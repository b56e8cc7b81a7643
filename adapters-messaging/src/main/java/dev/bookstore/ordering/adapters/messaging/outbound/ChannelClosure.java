package dev.bookstore.ordering.adapters.messaging.outbound;

import java.util.Objects;

/**
 * Why a publishing channel closed, in plain terms (no client types), so that the confirm bookkeeping and the
 * outcome rules can be tested without a broker.
 *
 * @param replyCode        the AMQP reply code of the {@code channel.close} or {@code connection.close}; 0 when the
 *                         connection was lost without one (socket closed, missed heartbeats)
 * @param connectionClosed whether the whole connection closed (a hard error), not just the channel
 * @param description      for the outbox row's last error and the logs
 */
record ChannelClosure(int replyCode, boolean connectionClosed, String description) {

    /** AMQP 404: a publish to an exchange that does not exist. */
    static final int NOT_FOUND = 404;
    /** Connection errors that a frame the client sent causes: frame, syntax, command-invalid, unexpected frame. */
    private static final int FRAME_ERROR = 501;
    private static final int SYNTAX_ERROR = 502;
    private static final int COMMAND_INVALID = 503;
    private static final int UNEXPECTED_FRAME = 505;

    ChannelClosure {
        Objects.requireNonNull(description, "description");
    }

    /** The broker closed the channel over an exchange that does not exist (the publisher checks and resends). */
    boolean missingExchange() {
        return !connectionClosed && replyCode == NOT_FOUND;
    }

    /**
     * The broker refused something the channel sent — a precondition failure (406), an invalid header, a frame it
     * could not parse — rather than going away: some message of the batch may be to blame. A lost connection, a
     * broker shutting down (320) and a missing exchange (404, handled on its own) are not.
     */
    boolean refusedByBroker() {
        if (connectionClosed) {
            return replyCode == FRAME_ERROR || replyCode == SYNTAX_ERROR || replyCode == COMMAND_INVALID
                    || replyCode == UNEXPECTED_FRAME;
        }
        return replyCode != 0 && replyCode != NOT_FOUND;
    }
}
