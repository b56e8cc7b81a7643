package dev.bookstore.ordering.consumer;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageListener;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A consumer of {@value OrderPlacedPayload#TYPE} that processes every message once, however often the broker
 * delivers it: it records the message id in the {@link InboxStore} and runs the handler in the same transaction, so
 * both commit or neither; the broker ack follows the commit, and a redelivery after a crash finds the id taken. In
 * its {@link #container container} a handler that throws gets the message again after a growing wait, up to
 * {@link InboxQueue#maxDeliveries()} times, then it goes to the dead-letter queue with the exception in
 * {@value #REASON_HEADER}; a message without a usable {@code message_id} or body goes there at once. Other order
 * events on the queue are acked and ignored.
 */
public final class OrderPlacedInboxListener implements MessageListener {

    /** On a dead-lettered message: why it could not be processed (the exception's class and message). */
    public static final String REASON_HEADER = "x-exception-message";
    /** On a dead-lettered message: how many times it was delivered to this consumer. */
    public static final String DELIVERIES_HEADER = "x-inbox-deliveries";

    private static final Logger LOG = LoggerFactory.getLogger(OrderPlacedInboxListener.class);

    private final String consumer;
    private final InboxStore inbox;
    private final TransactionTemplate transactions;
    private final Consumer<OrderPlacedPayload> handler;
    private final Runnable duplicateSkipped;

    /**
     * @param consumer     the consumer's name in the inbox; each consumer keeps its own record of what it processed
     * @param transactions the transaction that the inbox store joins and the handler runs in
     * @param handler      the work to do once per order placed
     */
    public OrderPlacedInboxListener(String consumer, InboxStore inbox, TransactionTemplate transactions,
                                    Consumer<OrderPlacedPayload> handler) {
        this(consumer, inbox, transactions, handler, () -> {
        });
    }

    /**
     * @param duplicateSkipped called once for every redelivery that the inbox recognised and skipped, after the
     *                         transaction, e.g. to count it; it must not throw
     */
    public OrderPlacedInboxListener(String consumer, InboxStore inbox, TransactionTemplate transactions,
                                    Consumer<OrderPlacedPayload> handler, Runnable duplicateSkipped) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.duplicateSkipped = Objects.requireNonNull(duplicateSkipped, "duplicateSkipped");
    }

    @Override
    public void onMessage(Message message) {
        MessageProperties properties = message.getMessageProperties();
        if (!OrderPlacedPayload.TYPE.equals(properties.getType())) {
            LOG.debug("Ignoring message {} of type {}", properties.getMessageId(), properties.getType());
            return;
        }
        UUID messageId = messageId(properties);
        OrderPlacedPayload payload = payload(message, messageId);
        boolean first = Boolean.TRUE.equals(transactions.execute(status -> {
            if (!inbox.recordFirstDelivery(consumer, messageId)) {
                LOG.debug("Dropping message {} for {}: processed before (redelivered: {})", messageId, consumer,
                        properties.isRedelivered());
                return false;
            }
            handler.accept(payload);
            return true;
        }));
        if (!first) {
            duplicateSkipped.run();
        }
    }

    /**
     * A container for this listener on the recipe's queue (declare it with {@link InboxQueue#declarables}): the
     * broker ack is sent after {@link #onMessage} returned, i.e. after the commit; a failing message is delivered
     * again a bounded number of times, then dead-lettered with its reason (see {@link InboxQueue}).
     */
    public SimpleMessageListenerContainer container(ConnectionFactory connectionFactory, InboxQueue queue) {
        SimpleMessageListenerContainer container = new SimpleMessageListenerContainer(connectionFactory);
        container.setQueueNames(queue.name());
        container.setMessageListener(new BoundedDeliveries(this, consumer, queue,
                new DeadLetterPublisher(connectionFactory, queue)));
        container.setAcknowledgeMode(AcknowledgeMode.AUTO);
        container.setDefaultRequeueRejected(true);
        // A consumer span per delivery, child of the message's traceparent (the relay's publish span), when the
        // container is a bean of a context with Micrometer Tracing; a no-op observation otherwise.
        container.setObservationEnabled(true);
        return container;
    }

    private static UUID messageId(MessageProperties properties) {
        String id = properties.getMessageId();
        if (id == null) {
            throw new AmqpRejectAndDontRequeueException("message without message_id cannot be deduplicated");
        }
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new AmqpRejectAndDontRequeueException("message_id is not a UUID: " + id, e);
        }
    }

    private static OrderPlacedPayload payload(Message message, UUID messageId) {
        String encoding = message.getMessageProperties().getContentEncoding();
        try {
            Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            return OrderPlacedPayload.fromJson(new String(message.getBody(), charset));
        } catch (IllegalArgumentException e) { // a body that breaks the contract, or an unknown content_encoding
            LOG.warn("Rejecting message {}: {}", messageId, e.getMessage());
            throw new AmqpRejectAndDontRequeueException("invalid payload of message " + messageId, e);
        }
    }
}
