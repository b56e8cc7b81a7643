package dev.bookstore.ordering.bootstrap.config;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.messaging.outbound.BlockedConnections;
import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.outbox.JdbcOutboxStore;
import dev.bookstore.ordering.adapters.persistence.outbox.OutboxNotificationListener;
import dev.bookstore.ordering.adapters.persistence.outbox.PostgresOutboxNotifications;
import dev.bookstore.ordering.adapters.persistence.outbox.PostgresOutboxNotifier;
import dev.bookstore.ordering.application.outbox.OutboxCommitListener;
import dev.bookstore.ordering.application.outbox.relay.Backoff;
import dev.bookstore.ordering.application.outbox.relay.BrokerBackpressure;
import dev.bookstore.ordering.application.outbox.relay.MessagePublisher;
import dev.bookstore.ordering.application.outbox.relay.OutboxLeases;
import dev.bookstore.ordering.application.outbox.relay.OutboxRelayService;
import dev.bookstore.ordering.application.outbox.relay.RelayMetrics;
import dev.bookstore.ordering.application.outbox.relay.RelayOutboxUseCase;
import dev.bookstore.ordering.application.outbox.relay.RelaySettings;
import dev.bookstore.ordering.application.outbox.relay.RelayWakeUp;
import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import dev.bookstore.ordering.bootstrap.observability.OutboxStatsSnapshot;
import dev.bookstore.ordering.bootstrap.relay.OutboxRelayWorkers;
import dev.bookstore.ordering.bootstrap.relay.PendingMessagesWakeUp;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.IntStream;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.scheduling.annotation.EnableScheduling;
import tools.jackson.databind.json.JsonMapper;

/** The relay: workers and what wakes them. The retention of published messages is in RetentionConfiguration. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class OutboxRelayConfiguration {

    /** Beyond the confirm timeout, what a stopping relay may take to record the outcomes of its last batch. */
    private static final Duration STOP_MARGIN = Duration.ofSeconds(5);

    @Bean
    RelayWakeUp relayWakeUp() {
        return new RelayWakeUp();
    }

    /**
     * While rows are pending, every count of the statistics snapshot (every {@code stats.refresh-interval}) rings
     * the relays, and a lease that ends before the next count gets a count of its own just after its end
     * ({@link PendingMessagesWakeUp}): rows left leased by an instance that died are taken over within milliseconds
     * of their lease's end, not at the next idle poll (up to {@code poll-interval-when-notified}). An idle outbox
     * (nothing pending) rings nothing and costs no transaction.
     */
    @Bean
    InitializingBean pendingRowsWakeTheRelays(ObjectProvider<OutboxStatsSnapshot> snapshot, RelayWakeUp wakeUp) {
        return () -> snapshot.ifAvailable(stats -> stats.onEachCount(new PendingMessagesWakeUp(wakeUp,
                stats.refreshInterval(), stats::countAgainIn)));
    }

    /**
     * The relays claim nothing while RabbitMQ blocks publishing (memory or disk alarm), and claim at once, not at
     * their next poll, when it lifts the block.
     */
    @Bean
    BlockedConnections blockedConnections(RelayWakeUp wakeUp) {
        return new BlockedConnections(wakeUp::ring);
    }

    /** This instance's commits wake its own relay at once, in process. */
    @Bean
    OutboxCommitListener localRelayWakeUp(RelayWakeUp wakeUp) {
        return committed -> wakeUp.ring();
    }

    /**
     * This instance's commits wake the relays of the other instances through PostgreSQL's {@code NOTIFY}, sent
     * after commit and coalesced. Also where this instance runs no relay: its orders must still be announced. Not in
     * a cdc deployment: the log reader needs no wake-up, and a polling relay beside it (during a switch) still polls.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnDeploymentRelay(Relay.POLLING)
    PostgresOutboxNotifier postgresOutboxNotifier(JdbcOutboxStore outbox, DataSourceProperties dataSource,
                                                  Environment environment, OutboxProperties properties) {
        if (outbox.database() != Database.POSTGRESQL) {
            return null; // no NOTIFY elsewhere: other instances find new rows at their poll
        }
        PostgresOutboxNotifier notifier = new PostgresOutboxNotifier(unpooled(dataSource, environment),
                properties.notifyMinInterval());
        notifier.start();
        return notifier;
    }

    /**
     * The relay's own connections ({@link RelayConnectionPool}): {@code relay-pool.maximum-size}, by default one per
     * worker and one. Only where the relay runs; closed after the workers that depend on it. Its connections run what
     * the outbox store asks of them (on PostgreSQL: commits that do not wait for the WAL flush, see
     * {@link JdbcOutboxStore#relayConnectionSetup()}). The pool is closed if the store cannot be made.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnRelay(Relay.POLLING)
    RelayConnectionPool relayConnectionPool(DataSourceProperties dataSource, Environment environment,
                                            OutboxProperties properties, JsonMapper json, JdbcOutboxStore outbox,
                                            ObjectProvider<MeterRegistry> meterRegistry) {
        HikariDataSource pool = DataSourceConfiguration.relayPool(dataSource, environment,
                properties.relayPoolMaximumSize(), meterRegistry.getIfUnique(), outbox.relayConnectionSetup());
        try {
            return new RelayConnectionPool(pool, new JdbcOutboxStore(pool, json));
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /**
     * The workers claim, mark and release on the relay's own pool, never on the API's. A round that claimed something
     * changed the outbox: the statistics follow it.
     */
    @Bean
    @ConditionalOnRelay(Relay.POLLING)
    OutboxRelayWorkers outboxRelayWorkers(RelayConnectionPool relayPool, MessagePublisher publisher,
                                          OutboxProperties properties, RelayWakeUp wakeUp, Clock clock,
                                          ObjectProvider<RelayMetrics> metrics,
                                          ObjectProvider<BrokerBackpressure> backpressure,
                                          ObjectProvider<OutboxStatsSnapshot> stats) {
        OutboxLeases outbox = relayPool.outbox();
        String instance = instanceName();
        RelayMetrics relayMetrics = metrics.getIfAvailable(() -> RelayMetrics.NONE);
        BrokerBackpressure brokerBackpressure = backpressure.getIfAvailable(() -> BrokerBackpressure.NONE);
        List<RelayOutboxUseCase> relays = IntStream.range(0, properties.workers())
                .<RelayOutboxUseCase>mapToObj(worker -> new OutboxRelayService(outbox, publisher,
                        settings(properties, instance + "/" + worker), clock, relayMetrics, brokerBackpressure))
                .toList();
        OutboxStatsSnapshot snapshot = stats.getIfAvailable();
        return new OutboxRelayWorkers(relays, wakeUp, properties.pollInterval(),
                properties.pollIntervalWhenNotified(), properties.brokerProbeInterval(), properties.linger(),
                properties.confirmTimeout().plus(STOP_MARGIN), snapshot == null ? () -> { } : snapshot::outboxChanged);
    }

    /**
     * Other instances' commits wake this relay through PostgreSQL's LISTEN/NOTIFY; elsewhere the poll is the only
     * wake-up across instances.
     */
    @Bean
    @ConditionalOnRelay(Relay.POLLING)
    OutboxNotificationListener outboxNotificationListener(DataSourceProperties dataSource, Environment environment,
                                                          RelayWakeUp wakeUp, OutboxProperties properties,
                                                          ObjectProvider<PostgresOutboxNotifier> notifier) {
        PostgresOutboxNotifier own = notifier.getIfAvailable();
        return own == null ? null : new OutboxNotificationListener(
                new PostgresOutboxNotifications(unpooled(dataSource, environment), own::backendPid), wakeUp,
                properties.pollInterval());
    }

    /**
     * Seconds a statement on a LISTEN or NOTIFY connection may wait for the server ({@code socketTimeout}), so that
     * one that stopped answering fails and is replaced instead of blocking until the operating system gives up
     * (about 15 minutes of retransmissions). It does not cut LISTEN's idle waits: the wait for a notification sets
     * its own read timeout, the poll interval, for its duration, and a keep-alive query at least every 10 s
     * ({@link PostgresOutboxNotifications}) notices a connection that stopped answering while idle.
     */
    private static final String LISTEN_NOTIFY_SOCKET_TIMEOUT_SECONDS = "30";

    /**
     * Connections of their own, outside the pool: LISTEN and NOTIFY keep theirs for the life of the service. Made as
     * the pool's (URL, user, password, {@code data-source-properties}: TLS included), with TCP keep-alive and a
     * socket timeout unless the pool's settings name them.
     */
    private static SimpleDriverDataSource unpooled(DataSourceProperties dataSource, Environment environment) {
        HikariConfig pool = DataSourceConfiguration.poolSettings(dataSource, environment);
        SimpleDriverDataSource unpooled = new SimpleDriverDataSource();
        unpooled.setUrl(pool.getJdbcUrl());
        unpooled.setUsername(pool.getUsername());
        unpooled.setPassword(pool.getPassword());
        unpooled.setDriverClass(org.postgresql.Driver.class);
        Properties properties = new Properties();
        properties.setProperty("tcpKeepAlive", "true");
        properties.setProperty("socketTimeout", LISTEN_NOTIFY_SOCKET_TIMEOUT_SECONDS);
        properties.putAll(DataSourceConfiguration.driverProperties(pool));
        unpooled.setConnectionProperties(properties);
        return unpooled;
    }

    static RelaySettings settings(OutboxProperties properties, String owner) {
        return new RelaySettings(owner, properties.batchSize(), properties.lease(), properties.confirmTimeout(),
                properties.maxAttempts(), Backoff.exponential(properties.backoffInitial(), properties.backoffMax()),
                properties.ordered(), properties.channelErrorRetries(), properties.unroutable());
    }

    /** host name plus a random suffix: unique even for two instances on one host. */
    static String instanceName() {
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
}
