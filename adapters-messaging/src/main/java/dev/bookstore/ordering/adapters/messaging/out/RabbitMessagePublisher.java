package dev.bookstore.ordering.adapters.messaging.out;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpConnectException;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.AmqpIOException;
import org.springframework.amqp.AmqpTimeoutException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.ChannelProxy;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.connection.CorrelationData.Confirm;
import org.springframework.amqp.rabbit.core.RabbitOperations;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * Publishes outbox batches to RabbitMQ with pipelined publisher confirms.
 *
 * <p>A batch goes out on <b>one channel</b> ({@link RabbitTemplate#invoke}): every message is published first,
 * then the publisher waits for all confirms against one deadline. Each message is {@code mandatory} and carries a
 * {@link CorrelationData} whose id is the message id, which is how Spring AMQP ties a confirm and a
 * {@code basic.return} to it. The outcome of one message:
 *
 * <ul>
 *   <li>ack, not returned → {@link Outcome#CONFIRMED}</li>
 *   <li>ack after a {@code basic.return} (RabbitMQ: no queue took the mandatory message) →
 *       {@link Outcome#RETURNED}. RabbitMQ sends the return before the ack on the same channel, the client
 *       handles both frames in order on its connection thread, and Spring AMQP stores the returned message in
 *       the {@link CorrelationData} <em>before</em> it completes the confirm future; so reading
 *       {@link CorrelationData#getReturned()} after the future completed never misses a return.</li>
 *   <li>nack (e.g. a queue at its length limit with {@code reject-publish}; Qpid Broker-J also nacks an
 *       unroutable mandatory message instead of returning it) → {@link Outcome#NACKED}</li>
 *   <li>no confirm before the deadline → {@link Outcome#TIMED_OUT}</li>
 *   <li>no connection, or the connection or channel closed before the confirm →
 *       {@link Outcome#BROKER_UNAVAILABLE}</li>
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
 * {@code timestamp} = occurred-at (AMQP timestamps have whole seconds), {@code app_id} and the row's headers.
 * Spring AMQP adds two headers of its own, {@code spring_returned_message_correlation} and
 * {@code spring_listener_return_correlation}, which it needs to match a return to its message.
 *
 * <p>It never throws for a delivery problem; it is thread-safe, and each calling thread uses its own channel.
 */
public final class RabbitMessagePublisher implements MessagePublisher {

    public static final String APP_ID = "ordering-service";
    public static final String CONTENT_ENCODING = "utf-8";

    private static final Logger LOG = LoggerFactory.getLogger(RabbitMessagePublisher.class);

    private final RabbitTemplate template;
    /** Exchanges a passive declare found; forgotten whenever the broker closes a channel over a missing one. */
    private final Set<String> knownExchanges = ConcurrentHashMap.newKeySet();
    /** Missing exchanges already logged, so that an operator sees one warning, not one per batch. */
    private final Set<String> reportedMissing = ConcurrentHashMap.newKeySet();

    /**
     * @param connectionFactory a factory with {@code CORRELATED} publisher confirms and publisher returns
     *                          (Spring Boot: {@code spring.rabbitmq.publisher-confirm-type=correlated},
     *                          {@code spring.rabbitmq.publisher-returns=true}). Publishing uses its separate
     *                          publisher connection when it has one, so that a broker that blocks publishers
     *                          does not also stall the consumers.
     */
    public RabbitMessagePublisher(ConnectionFactory connectionFactory) {
        Objects.requireNonNull(connectionFactory, "connectionFactory");
        requireConfirmsAndReturns(connectionFactory);
        if (connectionFactory.getPublisherConnectionFactory() != null) {
            requireConfirmsAndReturns(connectionFactory.getPublisherConnectionFactory());
        }
        template = new RabbitTemplate(connectionFactory);
        template.setMandatory(true);
        template.setUsePublisherConnection(true);
        // the outcome is read from the CorrelationData; without a callback Spring AMQP warns about every return
        template.setReturnsCallback(returned -> LOG.debug("Returned: {}", returned));
    }

    private static void requireConfirmsAndReturns(ConnectionFactory connectionFactory) {
        if (!connectionFactory.isPublisherConfirms() || !connectionFactory.isPublisherReturns()) {
            throw new IllegalArgumentException("the connection factory needs publisher-confirm-type CORRELATED "
                    + "and publisher returns enabled");
        }
    }

    @Override
    public List<PublishResult> publish(List<OutboxMessage> batch, Duration confirmTimeout) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(confirmTimeout, "confirmTimeout");
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
            List<Integer> lostWithChannel = publishRound(batch, pending, results, deadline, confirmTimeout);
            if (!lostWithChannel.isEmpty()) {
                // an exchange vanished mid-batch and the broker closed the channel; the rest goes again, once
                knownExchanges.clear();
                if (System.nanoTime() - deadline < 0) {
                    LOG.warn("The broker closed the publishing channel over a missing exchange; publishing the "
                            + "{} unconfirmed message(s) of the batch again on a new channel", lostWithChannel.size());
                    publishRound(batch, lostWithChannel, results, deadline, confirmTimeout);
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
                                       long deadline, Duration confirmTimeout) {
        List<Integer> publishable = checkExchanges(batch, indices, results);
        if (publishable.isEmpty()) {
            return List.of();
        }
        Round round = new Round(batch, publishable, results);
        String failure = null;
        try {
            template.invoke(operations -> {
                round.publishAll(operations);
                round.awaitConfirms(deadline);
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

    /** One batch on one channel: what was sent, and the confirms that came back. */
    private static final class Round {

        private final List<OutboxMessage> batch;
        private final List<Integer> indices;
        private final PublishResult[] results;
        private final CorrelationData[] correlations;
        private Channel channel;
        private String sendFailure;

        Round(List<OutboxMessage> batch, List<Integer> indices, PublishResult[] results) {
            this.batch = batch;
            this.indices = indices;
            this.results = results;
            this.correlations = new CorrelationData[batch.size()];
        }

        void publishAll(RabbitOperations operations) {
            Channel proxy = operations.execute(c -> c); // the channel invoke() holds for this thread
            channel = proxy instanceof ChannelProxy p ? p.getTargetChannel() : proxy;
            for (int i : indices) {
                OutboxMessage message = batch.get(i);
                CorrelationData correlation = new CorrelationData(message.id().toString());
                try {
                    operations.send(message.exchange(), message.routingKey(), toAmqp(message), correlation);
                    correlations[i] = correlation;
                } catch (RuntimeException e) {
                    if (isConnectivityProblem(e) || (channel != null && !channel.isOpen())) {
                        sendFailure = describe(e); // the channel is gone; the unsent rest is decided in record()
                        return;
                    }
                    // this one message could not be sent (say, a header the client cannot encode); the rest can
                    results[i] = result(message, Outcome.NACKED, "not sent: " + describe(e));
                }
            }
        }

        void awaitConfirms(long deadline) {
            List<CompletableFuture<Confirm>> futures = new ArrayList<>(indices.size());
            for (CorrelationData correlation : correlations) {
                if (correlation != null) {
                    futures.add(correlation.getFuture());
                }
            }
            long remaining = deadline - System.nanoTime();
            try {
                CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                        .get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                // the unconfirmed ones are TIMED_OUT, decided in record()
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                throw new IllegalStateException("a confirm future never fails", e);
            }
        }

        /**
         * Records the outcomes; returns the messages lost because the broker closed the channel over a missing
         * exchange. {@code failure} describes why {@code invoke} failed, if it did.
         */
        List<Integer> record(Duration confirmTimeout, String failure) {
            ShutdownSignalException close = channel == null ? null : channel.getCloseReason();
            boolean missingExchange = close != null && !close.isHardError() && replyCode(close) == AMQP.NOT_FOUND;
            String closeDetail = close != null ? describe(close)
                    : sendFailure != null ? sendFailure
                    : failure != null ? failure
                    : "channel closed before the confirm";
            List<Integer> lost = new ArrayList<>();
            for (int i : indices) {
                if (results[i] != null) {
                    continue;
                }
                OutboxMessage message = batch.get(i);
                CorrelationData correlation = correlations[i];
                Confirm confirm = correlation == null ? null : correlation.getFuture().getNow(null);
                ReturnedMessage returned = correlation == null ? null : correlation.getReturned();
                if (correlation == null || (confirm != null && !confirm.ack() && confirm.reason() != null)) {
                    // never sent, or nacked by the client because the channel closed (a broker nack has no reason)
                    if (missingExchange) {
                        lost.add(i);
                    } else {
                        results[i] = result(message, Outcome.BROKER_UNAVAILABLE, closeDetail);
                    }
                } else if (returned != null) {
                    results[i] = result(message, Outcome.RETURNED, describe(returned));
                } else if (confirm == null) {
                    results[i] = result(message, Outcome.TIMED_OUT, "no confirm within " + confirmTimeout);
                } else if (confirm.ack()) {
                    results[i] = PublishResult.confirmed(message.id());
                } else {
                    results[i] = result(message, Outcome.NACKED, "nack from the broker");
                }
            }
            return lost;
        }
    }

    static Message toAmqp(OutboxMessage message) {
        MessageProperties properties = new MessageProperties();
        properties.setMessageId(message.id().toString());
        properties.setCorrelationId(message.aggregateId());
        properties.setType(message.type());
        properties.setContentType(MessageProperties.CONTENT_TYPE_JSON);
        properties.setContentEncoding(CONTENT_ENCODING);
        properties.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
        properties.setTimestamp(Date.from(message.occurredAt()));
        properties.setAppId(APP_ID);
        message.headers().forEach(properties::setHeader);
        return new Message(message.payload().getBytes(StandardCharsets.UTF_8), properties);
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

    private static String describe(ReturnedMessage returned) {
        return "%d %s (exchange '%s', routing key '%s')".formatted(returned.getReplyCode(),
                returned.getReplyText(), returned.getExchange(), returned.getRoutingKey());
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
