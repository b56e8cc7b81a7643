package dev.bookstore.ordering.adapters.messaging.outbound;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.amqp.AmqpConnectException;
import org.springframework.amqp.AmqpIOException;
import org.springframework.amqp.AmqpTimeoutException;

/** Reading the client's and Spring AMQP's exceptions: what closed, with which code, in one line of text. */
final class AmqpFailures {

    private AmqpFailures() {
    }

    /** An I/O error, a closed channel or connection: the broker's side, not the message's. */
    static boolean isConnectivityProblem(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException || cause instanceof ShutdownSignalException
                    || cause instanceof AmqpConnectException || cause instanceof AmqpIOException
                    || cause instanceof AmqpTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** The channel-level (not connection-level) close somewhere in the causes of {@code e}, or null. */
    static ShutdownSignalException channelClose(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ShutdownSignalException signal) {
                return signal.isHardError() ? null : signal;
            }
        }
        return null;
    }

    /** A close signal in plain terms. */
    static ChannelClosure closure(ShutdownSignalException signal) {
        return new ChannelClosure(replyCode(signal), signal.isHardError(), describe(signal));
    }

    static int replyCode(ShutdownSignalException signal) {
        if (signal.getReason() instanceof AMQP.Channel.Close close) {
            return close.getReplyCode();
        }
        if (signal.getReason() instanceof AMQP.Connection.Close close) {
            return close.getReplyCode();
        }
        return 0;
    }

    /** The messages of the cause chain, each once: what an operator reads in the row's last error. */
    static String describe(Throwable e) {
        StringBuilder text = new StringBuilder();
        Set<Throwable> seen = new LinkedHashSet<>();
        for (Throwable cause = e; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (cause.getMessage() != null && (text.isEmpty() || !text.toString().contains(cause.getMessage()))) {
                if (!text.isEmpty()) {
                    text.append(" <- ");
                }
                text.append(cause.getClass().getSimpleName()).append(": ").append(cause.getMessage());
            }
        }
        return text.isEmpty() ? e.getClass().getName() : text.toString();
    }
}
