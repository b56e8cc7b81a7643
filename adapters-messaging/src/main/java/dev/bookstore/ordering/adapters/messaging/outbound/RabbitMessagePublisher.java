package dev.bookstore.ordering.adapters.messaging.outbound;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.ReturnListener;
import com.rabbitmq.client.ShutdownListener;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.MessagePublisher;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.rabbit.connection.Connection;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * Publishes outbox batches to RabbitMQ with pipelined publisher confirms: a batch goes out on one channel
 * ({@link RabbitTemplate#invoke}), every message {@code mandatory}, then all confirms are awaited against one
 * deadline. Confirms and returns are settled on the client's own channel by a {@link ConfirmListener}, a
 * {@link ReturnListener} and a {@link ShutdownListener} (Spring AMQP's {@code CORRELATED} confirms hand each one to
 * an executor thread, which cost about a fifth of the rate). One message's outcome:
 *
 * <ul>
 *   <li>ack → {@link Outcome#CONFIRMED}; ack after a {@code basic.return} (no queue took it; RabbitMQ sends the
 *       return first on the same channel) → {@link Outcome#RETURNED}</li>
 *   <li>nack (a full queue with {@code reject-publish}; Qpid nacks an unroutable message) → {@link Outcome#NACKED}</li>
 *   <li>no confirm before the deadline → {@link Outcome#TIMED_OUT}; no connection, or it closed →
 *       {@link Outcome#BROKER_UNAVAILABLE}</li>
 *   <li>the broker closed the channel over something it refused (406) → {@link Outcome#CHANNEL_CLOSED} for every
 *       unanswered message; the relay decides whom to charge</li>
 * </ul>
 *
 * <p>A publish to a missing exchange would close the channel and take the whole batch with it, so each exchange is
 * checked once with a passive declare ({@link ExchangeCheck}) and messages for a missing one are {@code NACKED}
 * unsent; one that vanishes later costs a second round of the unconfirmed rest on a fresh channel.
 * {@link PublishingRound} does the channel I/O of a round, {@link ConfirmTracker} the bookkeeping,
 * {@link RoundOutcomes} the outcomes. Never throws for a delivery problem; thread-safe, a channel per thread.
 */
public final class RabbitMessagePublisher implements MessagePublisher {

    public static final String APP_ID = AmqpProperties.APP_ID;
    public static final String CONTENT_TYPE = AmqpProperties.CONTENT_TYPE;
    public static final String CONTENT_ENCODING = AmqpProperties.CONTENT_ENCODING;

    private static final Logger LOG = LoggerFactory.getLogger(RabbitMessagePublisher.class);

    private final RabbitTemplate template;
    private final ExchangeCheck exchanges;
    /** The factory publishing uses: the separate publisher connection factory when there is one. */
    private final ConnectionFactory publishing;

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
        exchanges = new ExchangeCheck(template);
        publishing = connectionFactory.getPublisherConnectionFactory() != null
                ? connectionFactory.getPublisherConnectionFactory() : connectionFactory;
    }

    /**
     * Asks the publishing connection factory for its connection: the open one (no I/O), or a new one, which a
     * {@code CachingConnectionFactory} then keeps for the next batch, so a successful probe is also the reconnect.
     * Closing what it returns gives it back to the cache (a no-op for the shared connection of the
     * {@code CHANNEL} cache mode). No channel is opened and nothing is published.
     */
    @Override
    public boolean brokerReachable() {
        try (Connection connection = publishing.createConnection()) {
            return connection.isOpen();
        } catch (AmqpException e) {
            LOG.debug("The broker is not reachable: {}", AmqpFailures.describe(e));
            return false;
        } catch (RuntimeException e) {
            LOG.warn("Probing the broker failed unexpectedly", e);
            return false;
        }
    }

    private static void requirePlainConfirmChannels(ConnectionFactory connectionFactory) {
        if (!connectionFactory.isSimplePublisherConfirms() || connectionFactory.isPublisherReturns()) {
            throw new IllegalArgumentException("the connection factory needs publisher-confirm-type SIMPLE and "
                    + "publisher returns disabled: the publisher handles confirms and returns on the channel itself");
        }
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
                exchanges.forget();
                if (System.nanoTime() - deadline < 0 && !stopSending.getAsBoolean()) {
                    LOG.warn("The broker closed the publishing channel over a missing exchange; publishing the "
                            + "{} unconfirmed message(s) of the batch again on a new channel", lostWithChannel.size());
                    publishRound(batch, lostWithChannel, results, deadline, confirmTimeout, stopSending);
                }
            }
        } catch (RuntimeException e) {
            // the contract is one result per message, never an exception; this is a last resort
            LOG.warn("Publishing a batch failed unexpectedly", e);
            fillMissing(batch, results, AmqpFailures.describe(e));
        }
        fillMissing(batch, results, "channel closed by the broker before the confirm");
        return List.of(results);
    }

    /**
     * Publishes the messages at {@code indices} and records their outcomes in {@code results}, except for those
     * lost because the broker closed the channel over a missing exchange: their indices are returned.
     */
    private List<Integer> publishRound(List<OutboxMessage> batch, List<Integer> indices, PublishResult[] results,
                                       long deadline, Duration confirmTimeout, BooleanSupplier stopSending) {
        List<Integer> publishable = publishable(batch, indices, results);
        if (publishable.isEmpty()) {
            return List.of();
        }
        PublishingRound round = new PublishingRound(batch, publishable, results, stopSending);
        String failure = null;
        try {
            template.invoke(operations -> {
                round.publishAndAwait(operations, deadline);
                return null;
            });
        } catch (AmqpException e) {
            // no channel at all (connection refused, authentication, ...), or closing it failed afterwards:
            // whatever was confirmed before still counts
            failure = AmqpFailures.describe(e);
        }
        return RoundOutcomes.decide(batch, publishable, results, round.tracker(), round.closure(),
                round.sendFailure() != null ? round.sendFailure() : failure, confirmTimeout);
    }

    /**
     * The messages at {@code indices} whose exchange exists; those for a missing exchange are answered NACKED. If
     * the broker cannot be reached at all, every message is BROKER_UNAVAILABLE and none is publishable.
     */
    private List<Integer> publishable(List<OutboxMessage> batch, List<Integer> indices, PublishResult[] results) {
        ExchangeCheck.Checked checked = exchanges.check(batch, indices);
        List<Integer> publishable = new ArrayList<>(indices.size());
        for (int i : indices) {
            OutboxMessage message = batch.get(i);
            String missing = checked.missing().get(message.exchange());
            if (checked.unreachable() != null) {
                results[i] = new PublishResult(message.id(), Outcome.BROKER_UNAVAILABLE, checked.unreachable());
            } else if (missing != null) {
                results[i] = new PublishResult(message.id(), Outcome.NACKED, missing);
            } else {
                publishable.add(i);
            }
        }
        return publishable;
    }

    /** The AMQP properties of an outbox message; see {@link AmqpProperties}. */
    static AMQP.BasicProperties properties(OutboxMessage message) {
        return AmqpProperties.of(message);
    }

    private static void fillMissing(List<OutboxMessage> batch, PublishResult[] results, String detail) {
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                results[i] = new PublishResult(batch.get(i).id(), Outcome.BROKER_UNAVAILABLE, detail);
            }
        }
    }
}
