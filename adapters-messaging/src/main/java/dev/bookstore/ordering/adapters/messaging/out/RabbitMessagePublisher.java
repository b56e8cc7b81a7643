package dev.bookstore.ordering.adapters.messaging.out;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.ReturnListener;
import com.rabbitmq.client.ShutdownListener;
import com.rabbitmq.client.ShutdownSignalException;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.PublishResult;
import dev.bookstore.ordering.application.outbox.PublishResult.Outcome;
import dev.bookstore.ordering.application.port.out.MessagePublisher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpConnectException;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.AmqpIOException;
import org.springframework.amqp.AmqpTimeoutException;
import org.springframework.amqp.rabbit.connection.ChannelProxy;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitOperations;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * Publishes outbox batches to RabbitMQ with pipelined publisher confirms.
 *
 * <p>A batch goes out on <b>one channel</b> ({@link RabbitTemplate#invoke}): every message is published first,
 * then the publisher waits for all confirms against one deadline. The publisher settles confirms and returns
 * itself, on the client's channel underneath Spring AMQP's proxy (the connection factory has {@code SIMPLE}
 * confirms and no publisher returns, so that channel is a plain confirm-mode channel with no Spring AMQP listener
 * on it): for the batch it adds a {@link ConfirmListener}, a {@link ReturnListener} and a
 * {@link ShutdownListener}, notes {@link Channel#getNextPublishSeqNo()} of each message before its
 * {@code mandatory} {@link Channel#basicPublish}, settles each ack or nack (one or, with {@code multiple}, all up
 * to its tag) into that message's state, matches a {@code basic.return} to its message by {@code message_id}, and
 * removes the three listeners before the channel goes back to the connection factory's cache. (Spring AMQP's
 * {@code CORRELATED} confirms do the same bookkeeping with a {@code CorrelationData} per message, but hand every
 * confirm to a thread of an executor; settling on the connection's thread keeps the publisher close to a plain
 * client's rate.) The outcome of one message:
 *
 * <ul>
 *   <li>ack, not returned → {@link Outcome#CONFIRMED}</li>
 *   <li>ack after a {@code basic.return} (RabbitMQ: no queue took the mandatory message) →
 *       {@link Outcome#RETURNED}. RabbitMQ sends the return before the ack on the same channel and the client
 *       calls the listeners for both frames in order on its connection thread, so the return is recorded before
 *       the ack settles the message; a return is never missed.</li>
 *   <li>nack (e.g. a queue at its length limit with {@code reject-publish}; Qpid Broker-J also nacks an
 *       unroutable mandatory message instead of returning it) → {@link Outcome#NACKED}</li>
 *   <li>no confirm before the deadline → {@link Outcome#TIMED_OUT}</li>
 *   <li>no connection, or the connection or channel closed before the confirm (the shutdown listener wakes the
 *       waiting thread at once) → {@link Outcome#BROKER_UNAVAILABLE}</li>
 *   <li>an exchange that does not exist → {@link Outcome#NACKED}, without publishing (see below)</li>
 * </ul>
 *
 * <p><b>Missing exchanges.</b> RabbitMQ answers a publish to a missing exchange by closing the whole channel
 * (404), which would take every other unconfirmed message of the batch with it. So the first time the publisher
 * sees an exchange it checks it with a passive declare on a separate channel and remembers the ones that exist;
 * messages for a missing exchange are answered {@code NACKED} and never published. Should an exchange vanish
 * after that check, the broker still closes the channel mid-batch: the publisher then forgets what it knew,
 * checks again and publishes the unconfirmed rest once more on a fresh channel (within the same deadline;
 * messages that had reached a queue before the close may so be delivered twice, which the consumers' inbox
 * absorbs).
 *
 * <p>Every message carries {@code message_id} = outbox id (the same on every retry), {@code correlation_id} =
 * aggregate id, {@code type}, {@code content_type} JSON, {@code content_encoding} UTF-8, persistent delivery,
 * {@code timestamp} = occurred-at (AMQP timestamps have whole seconds), {@code app_id} and the row's headers,
 * nothing else.
 *
 * <p>It never throws for a delivery problem; it is thread-safe, and each calling thread uses its own channel.
 */
public final class RabbitMessagePublisher implements MessagePublisher {

    public static final String APP_ID = "ordering-service";
    public static final String CONTENT_TYPE = "application/json";
    public static final String CONTENT_ENCODING = "utf-8";
    /** AMQP delivery mode 2: the broker writes the message to disk. */
    private static final int PERSISTENT = 2;

    private static final Logger LOG = LoggerFactory.getLogger(RabbitMessagePublisher.class);

    private final RabbitTemplate template;
    /** Exchanges a passive declare found; forgotten whenever the broker closes a channel over a missing one. */
    private final Set<String> knownExchanges = ConcurrentHashMap.newKeySet();
    /** Missing exchanges already logged, so that an operator sees one warning, not one per batch. */
    private final Set<String> reportedMissing = ConcurrentHashMap.newKeySet();

    /**
     * @param connectionFactory a factory with {@code SIMPLE} publisher confirms and <em>without</em> publisher
     *                          returns (Spring Boot: {@code spring.rabbitmq.publisher-confirm-type=simple},
     *                          {@code spring.rabbitmq.publisher-returns=false}). Its channels are then plain
     *                          confirm-mode channels with no Spring AMQP listeners on them; with {@code CORRELATED}
     *                          confirms or publisher returns, Spring AMQP would wrap each channel in a
     *                          {@code PublisherCallbackChannel} that settles confirms and returns itself.
     *                          Publishing uses the factory's separate publisher connection when it has one, so that
     *                          a broker that blocks publishers does not also stall the consumers.
     */
    public RabbitMessagePublisher(ConnectionFactory connectionFactory) {
        Objects.requireNonNull(connectionFactory, "connectionFactory");
        requirePlainConfirmChannels(connectionFactory);
        if (connectionFactory.getPublisherConnectionFactory() != null) {
            requirePlainConfirmChannels(connectionFactory.getPublisherConnectionFactory());
        }
        template = new RabbitTemplate(connectionFactory);
        template.setUsePublisherConnection(true);
    }

    private static void requirePlainConfirmChannels(ConnectionFactory connectionFactory) {
        if (!connectionFactory.isSimplePublisherConfirms() || connectionFactory.isPublisherReturns()) {
            throw new IllegalArgumentException("the connection factory needs publisher-confirm-type SIMPLE and "
                    + "publisher returns disabled: the publisher handles confirms and returns on the channel itself");
        }
    }

    @Override
    public List<PublishResult> publish(List<OutboxMessage> batch, Duration confirmTimeout) {
        return publish(batch, confirmTimeout, () -> false);
    }

    /**
     * Once {@code stopSending} answers true (checked before each message), the rest of the batch is not sent: each
     * unsent message is {@link Outcome#BROKER_UNAVAILABLE} ("not sent"), and the confirms of the messages already
     * sent are awaited as usual, until the deadline. No second round goes out after a missing exchange.
     */
    @Override
    public List<PublishResult> publish(List<OutboxMessage> batch, Duration confirmTimeout,
                                       BooleanSupplier stopSending) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(confirmTimeout, "confirmTimeout");
        Objects.requireNonNull(stopSending, "stopSending");
        if (batch.isEmpty()) {
            return List.of();
        }
        long deadline = System.nanoTime() + Math.max(0, confirmTimeout.toNanos());
        PublishResult[] results = new PublishResult[batch.size()];
        List<Integer> pending = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            pending.add(i);
        }
        try {
            List<Integer> lostWithChannel = publishRound(batch, pending, results, deadline, confirmTimeout,
                    stopSending);
            if (!lostWithChannel.isEmpty()) {
                // an exchange vanished mid-batch and the broker closed the channel; the rest goes again, once
                knownExchanges.clear();
                if (System.nanoTime() - deadline < 0 && !stopSending.getAsBoolean()) {
                    LOG.warn("The broker closed the publishing channel over a missing exchange; publishing the "
                            + "{} unconfirmed message(s) of the batch again on a new channel", lostWithChannel.size());
                    publishRound(batch, lostWithChannel, results, deadline, confirmTimeout, stopSending);
                }
            }
        } catch (RuntimeException e) {
            // the contract is one result per message, never an exception; this is a last resort
            LOG.warn("Publishing a batch failed unexpectedly", e);
            fillMissing(batch, results, Outcome.BROKER_UNAVAILABLE, describe(e));
        }
        fillMissing(batch, results, Outcome.BROKER_UNAVAILABLE, "channel closed by the broker before the confirm");
        return List.of(results);
    }

    /**
     * Publishes the messages at {@code indices} and records their outcomes in {@code results}, except for those
     * lost because the broker closed the channel over a missing exchange: their indices are returned.
     */
    private List<Integer> publishRound(List<OutboxMessage> batch, List<Integer> indices, PublishResult[] results,
                                       long deadline, Duration confirmTimeout, BooleanSupplier stopSending) {
        List<Integer> publishable = checkExchanges(batch, indices, results);
        if (publishable.isEmpty()) {
            return List.of();
        }
        Round round = new Round(batch, publishable, results, stopSending);
        String failure = null;
        try {
            template.invoke(operations -> {
                round.publishAndAwait(operations, deadline);
                return null;
            });
        } catch (AmqpException e) {
            // no channel at all (connection refused, authentication, ...), or closing it failed afterwards:
            // whatever was confirmed before still counts
            failure = describe(e);
        }
        return round.record(confirmTimeout, failure);
    }

    /**
     * Checks every exchange of the batch that was not seen before with a passive declare on a channel of its own
     * (a failed declare closes that channel, not the batch's). Messages for a missing exchange are answered
     * NACKED; if the broker cannot be reached at all, every message is BROKER_UNAVAILABLE.
     */
    private List<Integer> checkExchanges(List<OutboxMessage> batch, List<Integer> indices, PublishResult[] results) {
        Set<String> unknown = new LinkedHashSet<>();
        for (int i : indices) {
            String exchange = batch.get(i).exchange();
            if (!exchange.isEmpty() && !knownExchanges.contains(exchange)) { // "" is the default exchange
                unknown.add(exchange);
            }
        }
        Map<String, String> missing = new LinkedHashMap<>();
        for (String exchange : unknown) {
            try {
                template.execute(channel -> channel.exchangeDeclarePassive(exchange));
                knownExchanges.add(exchange);
                reportedMissing.remove(exchange);
            } catch (AmqpException e) {
                ShutdownSignalException close = channelClose(e);
                if (close != null && replyCode(close) == AMQP.NOT_FOUND) {
                    if (reportedMissing.add(exchange)) { // once, not on every relay round
                        LOG.warn("Exchange '{}' does not exist; its messages are not published", exchange);
                    }
                    missing.put(exchange, "exchange '" + exchange + "' does not exist (404 NOT_FOUND), not published");
                } else {
                    for (int i : indices) {
                        results[i] = result(batch.get(i), Outcome.BROKER_UNAVAILABLE, describe(e));
                    }
                    return List.of();
                }
            }
        }
        List<Integer> publishable = new ArrayList<>(indices.size());
        for (int i : indices) {
            String reason = missing.get(batch.get(i).exchange());
            if (reason == null) {
                publishable.add(i);
            } else {
                results[i] = result(batch.get(i), Outcome.NACKED, reason);
            }
        }
        return publishable;
    }

    /**
     * One batch on one channel: what was sent, and what the broker answered. The round is the channel's
     * {@link ConfirmListener}, {@link ReturnListener} and {@link ShutdownListener} while it publishes and waits;
     * the listeners run on the connection's thread, the publishing thread waits on {@link #settled}.
     */
    private static final class Round implements ConfirmListener, ReturnListener, ShutdownListener {

        private final List<OutboxMessage> batch;
        private final List<Integer> indices;
        private final PublishResult[] results;
        private final BooleanSupplier stopSending;

        private final Lock lock = new ReentrantLock();
        /** Signalled when the last published message is settled, and when the channel closes. */
        private final Condition settled = lock.newCondition();
        /** Published and not yet acked or nacked: publish sequence number → index in the batch. */
        private final NavigableMap<Long, Integer> unsettled = new TreeMap<>();
        /** Published messages by {@code message_id}, to match a {@code basic.return}. */
        private final Map<String, Integer> byMessageId = new HashMap<>();
        /** Per index in the batch: acked, nacked, the {@code basic.return} detail. */
        private final boolean[] acked;
        private final boolean[] nacked;
        private final String[] returned;
        /** Per index in the batch: handed to the channel (even if its confirm never came). */
        private final boolean[] sent;
        private ShutdownSignalException close;

        private Channel channel;
        private String sendFailure;
        /** A failed publish used up a sequence number: the channel must not be used again. */
        private boolean sequenceDisturbed;

        Round(List<OutboxMessage> batch, List<Integer> indices, PublishResult[] results,
              BooleanSupplier stopSending) {
            this.batch = batch;
            this.indices = indices;
            this.results = results;
            this.stopSending = stopSending;
            this.acked = new boolean[batch.size()];
            this.nacked = new boolean[batch.size()];
            this.returned = new String[batch.size()];
            this.sent = new boolean[batch.size()];
        }

        /**
         * Publishes every message of the round on the channel {@code invoke} holds for this thread, then waits
         * until all are settled, the channel closes or the deadline passes. The listeners are removed before the
         * channel goes back to the connection factory's cache, so late confirms of this batch reach nobody.
         */
        void publishAndAwait(RabbitOperations operations, long deadline) {
            Channel proxy = operations.execute(c -> c); // the channel invoke() holds for this thread
            channel = proxy instanceof ChannelProxy p ? p.getTargetChannel() : proxy;
            channel.addShutdownListener(this); // called at once if the channel is already closed
            channel.addConfirmListener(this);
            channel.addReturnListener(this);
            try {
                publishAll();
                awaitSettled(deadline);
            } finally {
                channel.removeReturnListener(this);
                channel.removeConfirmListener(this);
                channel.removeShutdownListener(this);
                if (sequenceDisturbed) {
                    abandon();
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

        private void publishAll() {
            for (int i : indices) {
                if (stopSending.getAsBoolean()) {
                    sendFailure = "not sent: the relay is stopping"; // the unsent rest is released in record()
                    return;
                }
                OutboxMessage message = batch.get(i);
                // registered before the publish: the ack can arrive before basicPublish returns
                long sequenceNumber = channel.getNextPublishSeqNo();
                lock.lock();
                try {
                    unsettled.put(sequenceNumber, i);
                    byMessageId.put(message.id().toString(), i);
                } finally {
                    lock.unlock();
                }
                try {
                    channel.basicPublish(message.exchange(), message.routingKey(), true, properties(message),
                            message.payload().getBytes(StandardCharsets.UTF_8));
                    sent[i] = true;
                } catch (IOException | RuntimeException e) {
                    forget(sequenceNumber);
                    if (isConnectivityProblem(e) || !channel.isOpen()) {
                        sendFailure = describe(e); // the channel is gone; the unsent rest is decided in record()
                        return;
                    }
                    // this one message could not be sent; the rest can
                    results[i] = result(message, Outcome.NACKED, "not sent: " + describe(e));
                    if (channel.getNextPublishSeqNo() != sequenceNumber) {
                        // the client counted a publish the broker never saw: from here on its sequence numbers
                        // would name the wrong messages, so nothing more goes out on this channel, which is then
                        // closed rather than returned to the cache
                        sendFailure = "not sent: the channel's publish sequence was disturbed by " + describe(e);
                        sequenceDisturbed = true;
                        return;
                    }
                }
            }
        }

        private void forget(long sequenceNumber) {
            lock.lock();
            try {
                unsettled.remove(sequenceNumber);
            } finally {
                lock.unlock();
            }
        }

        private void awaitSettled(long deadline) {
            lock.lock();
            try {
                while (!unsettled.isEmpty() && close == null) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        return; // the unsettled ones are TIMED_OUT, decided in record()
                    }
                    settled.awaitNanos(remaining);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void handleAck(long deliveryTag, boolean multiple) {
            settle(deliveryTag, multiple, acked);
        }

        @Override
        public void handleNack(long deliveryTag, boolean multiple) {
            settle(deliveryTag, multiple, nacked);
        }

        /** {@code multiple}: the broker answers every publish up to and including {@code deliveryTag}. */
        private void settle(long deliveryTag, boolean multiple, boolean[] outcome) {
            lock.lock();
            try {
                // tags of an earlier batch on the same channel (late confirms) are simply not in the map
                Map<Long, Integer> answered = multiple ? unsettled.headMap(deliveryTag, true)
                        : unsettled.containsKey(deliveryTag) ? unsettled.subMap(deliveryTag, true, deliveryTag, true)
                        : Map.of();
                for (int i : answered.values()) {
                    outcome[i] = true;
                }
                answered.clear(); // a view: removes them from unsettled
                if (unsettled.isEmpty()) {
                    settled.signalAll();
                }
            } finally {
                lock.unlock();
            }
        }

        /**
         * RabbitMQ sends the return of a message before its ack, and the client calls the listeners in frame
         * order on the connection's thread, so the return is recorded before the ack settles the message.
         */
        @Override
        public void handleReturn(int replyCode, String replyText, String exchange, String routingKey,
                                 AMQP.BasicProperties properties, byte[] body) {
            lock.lock();
            try {
                Integer i = properties.getMessageId() == null ? null : byMessageId.get(properties.getMessageId());
                if (i != null) {
                    returned[i] = "%d %s (exchange '%s', routing key '%s')".formatted(replyCode, replyText,
                            exchange, routingKey);
                }
            } finally {
                lock.unlock();
            }
        }

        /** The channel or its connection closed: whatever is unsettled now will never be confirmed. */
        @Override
        public void shutdownCompleted(ShutdownSignalException cause) {
            lock.lock();
            try {
                close = cause;
                settled.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /**
         * Records the outcomes; returns the messages lost because the broker closed the channel over a missing
         * exchange. {@code failure} describes why {@code invoke} failed, if it did.
         */
        List<Integer> record(Duration confirmTimeout, String failure) {
            lock.lock(); // a confirm arriving now (after the listeners were removed) can no longer change anything
            try {
                ShutdownSignalException closed = close != null ? close
                        : channel == null ? null : channel.getCloseReason();
                boolean missingExchange = closed != null && !closed.isHardError()
                        && replyCode(closed) == AMQP.NOT_FOUND;
                String closeDetail = closed != null ? describe(closed)
                        : sendFailure != null ? sendFailure
                        : failure != null ? failure
                        : "channel closed before the confirm";
                List<Integer> lost = new ArrayList<>();
                for (int i : indices) {
                    if (results[i] != null) {
                        continue;
                    }
                    OutboxMessage message = batch.get(i);
                    boolean answered = acked[i] || nacked[i];
                    if (!sent[i] || (!answered && closed != null)) {
                        // never sent, or the channel closed before the broker answered
                        if (missingExchange) {
                            lost.add(i);
                        } else {
                            results[i] = result(message, Outcome.BROKER_UNAVAILABLE, closeDetail);
                        }
                    } else if (returned[i] != null) {
                        results[i] = result(message, Outcome.RETURNED, returned[i]);
                    } else if (!answered) {
                        results[i] = result(message, Outcome.TIMED_OUT, "no confirm within " + confirmTimeout);
                    } else if (acked[i]) {
                        results[i] = PublishResult.confirmed(message.id());
                    } else {
                        results[i] = result(message, Outcome.NACKED, "nack from the broker");
                    }
                }
                return lost;
            } finally {
                lock.unlock();
            }
        }
    }

    /** The AMQP properties of an outbox message; see the class comment. */
    static AMQP.BasicProperties properties(OutboxMessage message) {
        return new AMQP.BasicProperties.Builder()
                .messageId(message.id().toString())
                .correlationId(message.aggregateId())
                .type(message.type())
                .contentType(CONTENT_TYPE)
                .contentEncoding(CONTENT_ENCODING)
                .deliveryMode(PERSISTENT)
                .timestamp(Date.from(message.occurredAt()))
                .appId(APP_ID)
                .headers(new HashMap<String, Object>(message.headers()))
                .build();
    }

    private static PublishResult result(OutboxMessage message, Outcome outcome, String detail) {
        return new PublishResult(message.id(), outcome, detail);
    }

    private static void fillMissing(List<OutboxMessage> batch, PublishResult[] results, Outcome outcome,
                                    String detail) {
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                results[i] = result(batch.get(i), outcome, detail);
            }
        }
    }

    /** An I/O error, a closed channel or connection: the broker's side, not the message's. */
    private static boolean isConnectivityProblem(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException || cause instanceof ShutdownSignalException
                    || cause instanceof AmqpConnectException || cause instanceof AmqpIOException
                    || cause instanceof AmqpTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static ShutdownSignalException channelClose(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ShutdownSignalException signal) {
                return signal.isHardError() ? null : signal;
            }
        }
        return null;
    }

    private static int replyCode(ShutdownSignalException signal) {
        if (signal.getReason() instanceof AMQP.Channel.Close close) {
            return close.getReplyCode();
        }
        if (signal.getReason() instanceof AMQP.Connection.Close close) {
            return close.getReplyCode();
        }
        return 0;
    }

    private static String describe(Throwable e) {
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

    /** For tests and diagnostics: the exchanges the publisher currently knows to exist. */
    Set<String> knownExchanges() {
        return Set.copyOf(knownExchanges);
    }
}
