package dev.bookstore.ordering.adapters.messaging.outbound;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.ReturnListener;
import com.rabbitmq.client.ShutdownListener;
import com.rabbitmq.client.ShutdownSignalException;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.rabbit.connection.ChannelProxy;
import org.springframework.amqp.rabbit.core.RabbitOperations;

/**
 * The channel I/O of one round: on the client's channel underneath Spring AMQP's proxy (a plain confirm-mode
 * channel, see {@link RabbitMessagePublisher}) it adds a {@link ConfirmListener}, a {@link ReturnListener} and a
 * {@link ShutdownListener} that hand every frame to the round's {@link ConfirmTracker}, publishes each message
 * {@code mandatory} after noting {@link Channel#getNextPublishSeqNo()}, waits for the tracker, and removes the
 * listeners before the channel goes back to the connection factory's cache, so late confirms reach nobody. The
 * listeners run on the connection's thread.
 */
final class PublishingRound implements ConfirmListener, ReturnListener, ShutdownListener {

    private static final Logger LOG = LoggerFactory.getLogger(PublishingRound.class);

    private final List<OutboxMessage> batch;
    private final List<Integer> indices;
    private final PublishResult[] results;
    private final BooleanSupplier stopSending;
    private final ConfirmTracker tracker;

    private Channel channel;
    private String sendFailure;
    /** A failed publish used up a sequence number: the channel must not be used again. */
    private boolean sequenceDisturbed;

    /** The messages {@code batch[indices]}; client-side refusals are written to {@code results} at once. */
    PublishingRound(List<OutboxMessage> batch, List<Integer> indices, PublishResult[] results,
                    BooleanSupplier stopSending) {
        this.batch = batch;
        this.indices = indices;
        this.results = results;
        this.stopSending = stopSending;
        this.tracker = new ConfirmTracker(indices.size());
    }

    ConfirmTracker tracker() {
        return tracker;
    }

    /** Why sending stopped before the end of the round, if it did (not a channel close). */
    String sendFailure() {
        return sendFailure;
    }

    /** Why the channel closed: what the shutdown listener saw, or else the channel's own close reason. */
    ChannelClosure closure() {
        ChannelClosure seen = tracker.closure();
        if (seen != null || channel == null) {
            return seen;
        }
        ShutdownSignalException reason = channel.getCloseReason();
        return reason == null ? null : AmqpFailures.closure(reason);
    }

    /**
     * Publishes every message of the round on the channel {@code invoke} holds for this thread, then waits until
     * all are settled, the channel closes or the deadline ({@link System#nanoTime()}) passes.
     */
    void publishAndAwait(RabbitOperations operations, long deadline) {
        Channel proxy = operations.execute(c -> c); // the channel invoke() holds for this thread
        channel = proxy instanceof ChannelProxy p ? p.getTargetChannel() : proxy;
        channel.addShutdownListener(this); // called at once if the channel is already closed
        channel.addConfirmListener(this);
        channel.addReturnListener(this);
        try {
            publishAll();
            tracker.awaitSettled(deadline);
        } finally {
            channel.removeReturnListener(this);
            channel.removeConfirmListener(this);
            channel.removeShutdownListener(this);
            if (sequenceDisturbed) {
                abandon();
            }
        }
    }

    private void publishAll() {
        for (int slot = 0; slot < indices.size(); slot++) {
            if (stopSending.getAsBoolean()) {
                sendFailure = "not sent: the relay is stopping";
                return;
            }
            int i = indices.get(slot);
            OutboxMessage message = batch.get(i);
            long sequenceNumber = channel.getNextPublishSeqNo();
            tracker.publishing(slot, sequenceNumber, message.id().toString());
            try {
                channel.basicPublish(message.exchange(), message.routingKey(), true, AmqpProperties.of(message),
                        message.payload().getBytes(StandardCharsets.UTF_8));
                tracker.sent(slot);
            } catch (IOException | RuntimeException e) {
                tracker.notSent(sequenceNumber);
                if (AmqpFailures.isConnectivityProblem(e) || !channel.isOpen()) {
                    sendFailure = AmqpFailures.describe(e); // the channel is gone; the unsent rest is decided later
                    return;
                }
                // this one message could not be sent; the rest can
                results[i] = new PublishResult(message.id(), Outcome.NACKED, "not sent: " + AmqpFailures.describe(e));
                if (channel.getNextPublishSeqNo() != sequenceNumber) {
                    // the client counted a publish the broker never saw: from here on its sequence numbers would
                    // name the wrong messages, so nothing more goes out on this channel, which is then closed
                    // rather than returned to the cache
                    sendFailure = "not sent: the channel's publish sequence was disturbed by " + AmqpFailures.describe(e);
                    sequenceDisturbed = true;
                    return;
                }
            }
        }
    }

    /** Closes the channel, so that the connection factory's cache never hands it out again. */
    private void abandon() {
        try {
            channel.abort();
        } catch (IOException | RuntimeException e) {
            LOG.debug("Aborting the publishing channel failed", e);
        }
    }

    @Override
    public void handleAck(long deliveryTag, boolean multiple) {
        tracker.ack(deliveryTag, multiple);
    }

    @Override
    public void handleNack(long deliveryTag, boolean multiple) {
        tracker.nack(deliveryTag, multiple);
    }

    @Override
    public void handleReturn(int replyCode, String replyText, String exchange, String routingKey,
                             AMQP.BasicProperties properties, byte[] body) {
        tracker.returned(properties.getMessageId(),
                "%d %s (exchange '%s', routing key '%s')".formatted(replyCode, replyText, exchange, routingKey));
    }

    @Override
    public void shutdownCompleted(ShutdownSignalException cause) {
        tracker.closed(AmqpFailures.closure(cause));
    }
}
