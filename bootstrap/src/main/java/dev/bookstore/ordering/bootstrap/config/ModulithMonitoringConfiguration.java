package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.adapters.persistence.modulith.JdbcEventPublications;
import dev.bookstore.ordering.bootstrap.modulith.IncompletePublicationsGauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The gauge of incomplete Spring Modulith event publications, and the executor of the in-process listeners:
 * {@code @ApplicationModuleListener}s run asynchronously after the order's commit ({@link EnableAsync}, on Boot's
 * {@code applicationTaskExecutor}, {@code spring.task.execution.*}), so an order's response never waits for them.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@EnableAsync
class ModulithMonitoringConfiguration {

    @Bean
    IncompletePublicationsGauge incompletePublicationsGauge(JdbcEventPublications publications,
                                                            MeterRegistry registry) {
        return new IncompletePublicationsGauge(publications::countIncomplete, registry);
    }
}
