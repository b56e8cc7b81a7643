package dev.bookstore.ordering.bootstrap.config;

import com.zaxxer.hikari.HikariConfig;
import dev.bookstore.ordering.adapters.cdc.CdcRelay;
import dev.bookstore.ordering.adapters.cdc.CdcSettings;
import dev.bookstore.ordering.adapters.cdc.DatabaseConnection;
import dev.bookstore.ordering.adapters.cdc.JdbcCapturedMessageParking;
import dev.bookstore.ordering.adapters.cdc.OutboxPublication;
import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.outbox.JdbcCapturedMessageRetention;
import dev.bookstore.ordering.adapters.persistence.outbox.JdbcCapturedOutboxStatistics;
import dev.bookstore.ordering.adapters.persistence.outbox.JdbcOutboxStore;
import dev.bookstore.ordering.adapters.persistence.outbox.PostgresCaptureLagProbe;
import dev.bookstore.ordering.application.outbox.admin.OutboxStatistics;
import dev.bookstore.ordering.application.outbox.capture.CaptureSettings;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesService;
import dev.bookstore.ordering.application.outbox.relay.Backoff;
import dev.bookstore.ordering.application.outbox.relay.MessagePublisher;
import dev.bookstore.ordering.application.outbox.relay.RelayMetrics;
import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import dev.bookstore.ordering.bootstrap.observability.CdcLagMonitor;
import dev.bookstore.ordering.bootstrap.retention.CapturedRetentionRounds;
import dev.bookstore.ordering.bootstrap.retention.RetentionJob;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;

/**
 * A deployment in cdc mode ({@code ordering.outbox.deployment-relay=cdc}, which {@code relay=cdc} implies): Debezium
 * reads inserted outbox rows from PostgreSQL's WAL, in an instance with {@code relay=cdc} (the service's own
 * publisher sends them, one instance per slot at a time) or outside the service. Rows are never marked published
 * in this mode; the retention job deletes them by age, and the slot is what the outbox health component measures.
 * Only {@code ordering-service-cdc.jar} carries the CDC runtime; {@link CdcRuntimeMissingConfiguration} stops a
 * cdc deployment started from the other jar.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnDeploymentRelay(Relay.CDC)
@ConditionalOnClass(name = CdcRuntimeMissingConfiguration.CDC_RUNTIME)
class CdcRelayConfiguration {

    static void requirePostgres(Database database) {
        if (database != Database.POSTGRESQL) {
            throw new CdcNeedsPostgresException(database);
        }
    }

    /**
     * Refused on any database but PostgreSQL, explained by {@link CdcNeedsPostgresFailureAnalyzer}. Started after
     * the schema is migrated (the outbox store needs it; the relay needs V8's publication and offsets table);
     * stopped before the pool. Made after Flyway's migration (it reads the schema of the outbox table, which a fresh
     * database gets from this instance's own migration). It captures the outbox table the pool's connections write, in whatever schema, and
     * refuses to start unless the publication publishes exactly that table ({@link OutboxPublication}). Its
     * connections are made as the pool's: URL, user, password and {@code spring.datasource.hikari.*} driver
     * properties.
     */
    @Bean(initMethod = "start", destroyMethod = "close")
    @ConditionalOnRelay(Relay.CDC)
    @DependsOnDatabaseInitialization
    CdcRelay cdcRelay(JdbcOutboxStore outboxStore, DataSourceProperties dataSource, Environment environment,
                      DataSource pool, OutboxProperties outbox, CdcProperties cdc, MessagePublisher publisher,
                      Clock clock, ObjectProvider<RelayMetrics> metrics) {
        requirePostgres(outboxStore.database());
        HikariConfig connection = DataSourceConfiguration.poolSettings(dataSource, environment);
        CdcSettings settings = new CdcSettings(new DatabaseConnection(connection.getJdbcUrl(),
                connection.getUsername(), connection.getPassword(),
                DataSourceConfiguration.driverProperties(connection)), OutboxPublication.capturedSchema(pool),
                cdc.slotName(), OutboxRelayConfiguration.instanceName(),
                cdc.leaderPollInterval(),
                Backoff.exponential(cdc.restartBackoffInitial(), cdc.restartBackoffMax()), cdc.pollInterval(),
                cdc.recoverLostSlot());
        RelayCapturedMessagesService relay = new RelayCapturedMessagesService(publisher,
                new JdbcCapturedMessageParking(pool), captureSettings(outbox, cdc), clock,
                metrics.getIfAvailable(() -> RelayMetrics.NONE));
        return new CdcRelay(settings, relay, relay, new PostgresCaptureLagProbe(pool, cdc.slotName()));
    }

    /** The stream's own attempts, backoff and unroutable policy ({@code cdc.*}); confirms as the relay's. */
    static CaptureSettings captureSettings(OutboxProperties outbox, CdcProperties cdc) {
        return new CaptureSettings(outbox.confirmTimeout(), cdc.maxAttempts(),
                Backoff.exponential(cdc.backoffInitial(), cdc.backoffMax()), outbox.brokerProbeInterval(),
                cdc.unroutable());
    }

    /**
     * The {@code outbox} health component in this mode (the bean's name makes the component's) and the slot's
     * gauges: lag, age of the oldest unconfirmed change and retained WAL, one query per
     * {@code cdc.lag-refresh-interval}.
     */
    @Bean(destroyMethod = "close")
    CdcLagMonitor outboxHealthIndicator(JdbcOutboxStore outboxStore, DataSource pool, CdcProperties cdc,
                                        MeterRegistry registry) {
        requirePostgres(outboxStore.database());
        return new CdcLagMonitor(new PostgresCaptureLagProbe(pool, cdc.slotName()),
                new CdcLagMonitor.Thresholds(cdc.lagDegraded(), cdc.lagDown(), cdc.unconfirmedAgeDegraded(),
                        cdc.unconfirmedAgeDown(), cdc.retainedWalDegraded(), cdc.retainedWalDown()),
                cdc.lagRefreshInterval(), registry);
    }

    /** Rows are never marked published in this mode: the statistics count the parked ones only. */
    @Bean
    @Primary
    OutboxStatistics capturedOutboxStatistics(DataSource pool) {
        return new JdbcCapturedOutboxStatistics(pool);
    }

    /**
     * Rows are never marked published in this mode: relayed rows go by age, like published ones otherwise, but only
     * behind what the slot confirmed, every {@code cdc.mark-interval}.
     */
    @Bean
    RetentionJob capturedOutboxRetentionJob(DataSource pool, OutboxProperties p, CdcProperties cdc) {
        return RetentionJob.perRound("outbox message(s) relayed from the log", p.retention(), cdc.markInterval(),
                p.retentionChunk(), new CapturedRetentionRounds(new JdbcCapturedMessageRetention(pool,
                        cdc.slotName(), new PostgresCaptureLagProbe(pool, cdc.slotName())), p.retention()));
    }
}
