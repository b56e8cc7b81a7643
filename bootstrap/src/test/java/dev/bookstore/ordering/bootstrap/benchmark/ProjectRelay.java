package dev.bookstore.ordering.bootstrap.benchmark;

import dev.bookstore.ordering.adapters.messaging.outbound.RabbitMessagePublisher;
import dev.bookstore.ordering.adapters.persistence.outbox.JdbcOutboxStore;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.Backoff;
import dev.bookstore.ordering.application.outbox.relay.BrokerBackpressure;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import dev.bookstore.ordering.application.outbox.relay.MessagePublisher;
import dev.bookstore.ordering.application.outbox.relay.OutboxLeases;
import dev.bookstore.ordering.application.outbox.relay.OutboxRelayService;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import dev.bookstore.ordering.application.outbox.relay.RelayMetrics;
import dev.bookstore.ordering.application.outbox.relay.RelayOutboxUseCase;
import dev.bookstore.ordering.application.outbox.relay.RelayRound;
import dev.bookstore.ordering.application.outbox.relay.RelaySettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The project's own relay, wired the way the service wires it: {@code OutboxRelayService} (through
 * {@link OutboxRelayService}) over {@link JdbcOutboxStore} and {@link RabbitMessagePublisher}. The two
 * ports are wrapped in pass-through decorators that only read the clock around each call, so the report can say
 * how much of a drain went to claiming, publishing (with the confirms) and marking. The connection factory must be
 * configured as the service's is ({@code SIMPLE} publisher confirms, no publisher returns, as
 * {@code TestRabbit.Broker#connectionFactory()} builds it); {@link RabbitMessagePublisher} refuses any other.
 * With {@code ordered}, the relay runs in ordered mode ({@code ordering.outbox.ordered=true}): it claims only the
 * oldest unpublished row of each aggregate, by the database-assigned {@code position}.
 */
final class ProjectRelay implements BenchmarkRelay {

    private final String name;
    private final TimedOutboxStore outbox;
    private final TimedPublisher publisher;
    private final int batchSize;
    private final boolean ordered;
    private int drains;

    ProjectRelay(String name, DataSource dataSource, ConnectionFactory connectionFactory, int batchSize,
            boolean ordered) {
        this.name = name;
        this.ordered = ordered;
        this.outbox = new TimedOutboxStore(new JdbcOutboxStore(dataSource, JsonMapper.builder().build()));
        this.publisher = new TimedPublisher(new RabbitMessagePublisher(connectionFactory));
        this.batchSize = batchSize;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Phases drainAll() {
        Phases phases = new Phases();
        outbox.phases = phases;
        publisher.phases = phases;
        RelaySettings settings = new RelaySettings("relay-benchmark-" + ++drains, batchSize, Duration.ofSeconds(60),
                Duration.ofSeconds(30), 10, Backoff.exponential(Duration.ofSeconds(1), Duration.ofMinutes(5)),
                ordered, 3, RelaySettings.Unroutable.RETRY);
        RelayOutboxUseCase relay = new OutboxRelayService(outbox, publisher, settings, Clock.systemUTC(), RelayMetrics.NONE, BrokerBackpressure.NONE);
        RelayRound round;
        do {
            round = relay.drain();
            if (round.retried() + round.parked() + round.released() > 0) {
                throw new IllegalStateException("the project's relay did not publish everything: " + round);
            }
        } while (round.claimed() > 0);
        return phases;
    }

    /** {@link OutboxLeases} that times the relay's calls and passes everything through. */
    private static final class TimedOutboxStore implements OutboxLeases {

        private final OutboxLeases store;
        Phases phases;

        TimedOutboxStore(OutboxLeases store) {
            this.store = store;
        }

        @Override
        public List<OutboxMessage> claim(String owner, int batchSize, Duration lease, boolean ordered) {
            long started = System.nanoTime();
            List<OutboxMessage> claimed = store.claim(owner, batchSize, lease, ordered);
            phases.claimNanos += System.nanoTime() - started;
            phases.batches += claimed.isEmpty() ? 0 : 1;
            return claimed;
        }

        @Override
        public int markPublished(String owner, Collection<UUID> ids) {
            long started = System.nanoTime();
            int marked = store.markPublished(owner, ids);
            phases.markNanos += System.nanoTime() - started;
            return marked;
        }

        @Override
        public int recordFailures(String owner, List<DeliveryFailure> failures) {
            long started = System.nanoTime();
            int recorded = store.recordFailures(owner, failures);
            phases.markNanos += System.nanoTime() - started;
            return recorded;
        }

        @Override
        public int release(String owner, Collection<UUID> ids) {
            long started = System.nanoTime();
            int released = store.release(owner, ids);
            phases.markNanos += System.nanoTime() - started;
            return released;
        }

    }

    /**
     * {@link MessagePublisher} that times each batch, publishing and waiting for its confirms together; the CDC
     * relay's drains use it too.
     */
    static final class TimedPublisher implements MessagePublisher {

        private final MessagePublisher publisher;
        Phases phases;

        TimedPublisher(MessagePublisher publisher) {
            this.publisher = publisher;
        }

        @Override
        public List<PublishResult> publish(List<OutboxMessage> batch, Duration confirmTimeout,
                                           BooleanSupplier stopSending) {
            long started = System.nanoTime();
            List<PublishResult> results = publisher.publish(batch, confirmTimeout, stopSending);
            phases.publishNanos += System.nanoTime() - started;
            return results;
        }
    }
}
