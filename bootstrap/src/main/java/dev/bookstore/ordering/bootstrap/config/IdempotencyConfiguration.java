package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.application.port.out.IdempotencyKeys;
import dev.bookstore.ordering.bootstrap.idempotency.IdempotencyKeyRetentionJob;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/** The retention of the {@code Idempotency-Key}s of {@code POST /orders}. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class IdempotencyConfiguration {

    @Bean
    IdempotencyKeyRetentionJob idempotencyKeyRetentionJob(IdempotencyKeys keys, IdempotencyProperties properties) {
        return new IdempotencyKeyRetentionJob(keys, properties.retention(), properties.retentionChunk());
    }
}
