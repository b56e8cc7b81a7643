package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.adapters.persistence.outbox.JdbcOutboxStore;
import dev.bookstore.ordering.adapters.persistence.outbox.OutboxMessagesCommitted;
import dev.bookstore.ordering.application.outbox.Backoff;
import dev.bookstore.ordering.application.outbox.RelaySettings;
import dev.bookstore.ordering.application.port.in.RelayOutboxUseCase;
import dev.bookstore.ordering.application.port.out.MessagePublisher;
import dev.bookstore.ordering.application.port.out.OutboxStore;
import dev.bookstore.ordering.application.service.OrderingUseCases;
import dev.bookstore.ordering.bootstrap.relay.OutboxNotificationListener;
import dev.bookstore.ordering.bootstrap.relay.OutboxRelayWorkers;
import dev.bookstore.ordering.bootstrap.relay.OutboxRetentionJob;
import dev.bookstore.ordering.bootstrap.relay.RelayWakeUp;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.scheduling.annotation.EnableScheduling;

/** The relay: workers, what wakes them, and the retention of published messages. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class OutboxRelayConfiguration {

    @Bean
    RelayWakeUp relayWakeUp() {
        return new RelayWakeUp();
    }

    /** This instance's commits wake its own relay at once. */
    @Bean
    LocalCommitListener localCommitListener(RelayWakeUp wakeUp) {
        return new LocalCommitListener(wakeUp);
    }

    @Bean
    @ConditionalOnBooleanProperty(name = "ordering.outbox.enabled", matchIfMissing = true)
    OutboxRelayWorkers outboxRelayWorkers(OutboxStore outbox, MessagePublisher publisher, OutboxProperties properties,
                                          RelayWakeUp wakeUp, Clock clock) {
        String instance = instanceName();
        List<RelayOutboxUseCase> relays = IntStream.range(0, properties.workers())
                .mapToObj(worker -> OrderingUseCases.relayOutbox(outbox, publisher,
                        settings(properties, instance + "/" + worker), clock))
                .toList();
        return new OutboxRelayWorkers(relays, wakeUp, properties.pollInterval());
    }

    /** Other instances' commits wake this relay through PostgreSQL's LISTEN/NOTIFY. */
    @Bean
    @ConditionalOnBooleanProperty(name = "ordering.outbox.enabled", matchIfMissing = true)
    OutboxNotificationListener outboxNotificationListener(JdbcOutboxStore outbox, DataSourceProperties dataSource,
                                                          RelayWakeUp wakeUp, OutboxProperties properties) {
        if (!"postgresql".equals(outbox.dialectName())) {
            return new OutboxNotificationListener(null, wakeUp, properties.pollInterval());
        }
        // A connection of its own, outside the pool: it stays parked in LISTEN for the life of the service.
        SimpleDriverDataSource unpooled = new SimpleDriverDataSource();
        unpooled.setUrl(dataSource.determineUrl());
        unpooled.setUsername(dataSource.determineUsername());
        unpooled.setPassword(dataSource.determinePassword());
        unpooled.setDriverClass(org.postgresql.Driver.class);
        return new OutboxNotificationListener(unpooled, wakeUp, properties.pollInterval());
    }

    @Bean
    OutboxRetentionJob outboxRetentionJob(OutboxStore outbox, OutboxProperties properties, Clock clock) {
        return new OutboxRetentionJob(outbox, properties.retention(), properties.retentionChunk(), clock);
    }

    static RelaySettings settings(OutboxProperties properties, String owner) {
        return new RelaySettings(owner, properties.batchSize(), properties.lease(), properties.confirmTimeout(),
                properties.maxAttempts(), Backoff.exponential(properties.backoffInitial(), properties.backoffMax()),
                properties.ordered());
    }

    /** host name plus a random suffix: unique even for two instances on one host. */
    private static String instanceName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String name = host + "-" + suffix;
        return name.length() > 100 ? name.substring(name.length() - 100) : name;
    }

    static final class LocalCommitListener {

        private final RelayWakeUp wakeUp;

        LocalCommitListener(RelayWakeUp wakeUp) {
            this.wakeUp = wakeUp;
        }

        @EventListener
        void on(OutboxMessagesCommitted committed) {
            wakeUp.ring();
        }
    }
}
