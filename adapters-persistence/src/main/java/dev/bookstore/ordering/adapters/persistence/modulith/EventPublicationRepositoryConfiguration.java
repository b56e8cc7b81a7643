package dev.bookstore.ordering.adapters.persistence.modulith;

import jakarta.persistence.EntityManager;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.modulith.events.core.EventSerializer;
import org.springframework.modulith.events.support.CompletionMode;

/**
 * The event publication repository Spring Modulith's registry uses: its JPA repository (the bean
 * {@code jpaEventPublicationRepository}), with the per-event insert and state changes as native SQL
 * ({@link NativeStatusEventPublications}).
 */
@Configuration(proxyBeanMethods = false)
class EventPublicationRepositoryConfiguration {

    @Bean
    @Primary
    NativeStatusEventPublications nativeStatusEventPublications(
            @Qualifier("jpaEventPublicationRepository") EventPublicationRepository jpa, EntityManager entityManager,
            EventSerializer serializer, Environment environment) {
        return new NativeStatusEventPublications(jpa, entityManager, serializer,
                CompletionMode.from(environment) == CompletionMode.DELETE);
    }
}
