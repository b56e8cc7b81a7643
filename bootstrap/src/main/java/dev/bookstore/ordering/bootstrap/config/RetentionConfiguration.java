package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.application.idempotency.IdempotencyKeys;
import dev.bookstore.ordering.application.outbox.OutboxRetention;
import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import dev.bookstore.ordering.bootstrap.retention.RetentionJob;
import dev.bookstore.ordering.bootstrap.retention.RetentionScheduling;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Retention of what grows: published outbox messages and the {@code Idempotency-Key}s of {@code POST /orders},
 * each by one {@link RetentionJob} on every instance. Parked outbox messages are never deleted automatically: an
 * operator requeues or discards them ({@code /admin/outbox}).
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class RetentionConfiguration {

    /** In a cdc deployment no row is marked published: {@link CdcRelayConfiguration} deletes them by age. */
    @Bean
    @ConditionalOnDeploymentRelay(Relay.POLLING)
    RetentionJob outboxRetentionJob(OutboxRetention outbox, OutboxProperties p) {
        return new RetentionJob("outbox message(s) published", p.retention(), p.retentionInterval(),
                p.retentionChunk(), outbox::deletePublishedOlderThan);
    }

    @Bean
    RetentionJob idempotencyKeyRetentionJob(IdempotencyKeys keys, IdempotencyProperties p) {
        return new RetentionJob("idempotency key(s) recorded", p.retention(), p.retentionInterval(),
                p.retentionChunk(), keys::deleteExpired);
    }

    @Bean
    static RetentionScheduling retentionScheduling(List<RetentionJob> jobs) {
        return new RetentionScheduling(jobs);
    }
}
