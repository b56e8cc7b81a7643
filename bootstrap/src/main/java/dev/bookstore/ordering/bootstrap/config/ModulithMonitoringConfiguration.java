package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.adapters.persistence.modulith.JdbcEventPublications;
import dev.bookstore.ordering.bootstrap.modulith.IncompletePublicationsGauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/** The gauge of incomplete Spring Modulith event publications. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class ModulithMonitoringConfiguration {

    @Bean
    IncompletePublicationsGauge incompletePublicationsGauge(JdbcEventPublications publications,
                                                            MeterRegistry registry) {
        return new IncompletePublicationsGauge(publications::countIncomplete, registry);
    }
}
