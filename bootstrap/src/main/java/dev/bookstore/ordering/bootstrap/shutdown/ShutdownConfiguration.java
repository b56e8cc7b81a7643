package dev.bookstore.ordering.bootstrap.shutdown;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The stop on SIGTERM, in Boot's order: readiness {@code REFUSING_TRAFFIC}, then {@link ReadinessDrain} (the
 * instance serves on while the load balancer notices), then the web server's graceful shutdown
 * ({@code server.shutdown=graceful}: no new connection, the requests in flight completed) beside the relay's stop
 * (its batch settled, the rest released), each phase bounded by {@code spring.lifecycle.timeout-per-shutdown-phase}.
 */
@Configuration(proxyBeanMethods = false)
class ShutdownConfiguration {

    @Bean
    ReadinessDrain readinessDrain(ShutdownProperties properties) {
        return new ReadinessDrain(properties.drain());
    }
}
