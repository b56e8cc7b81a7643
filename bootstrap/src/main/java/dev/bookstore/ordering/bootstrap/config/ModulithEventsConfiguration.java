package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.adapters.persistence.modulith.NativeStatusEventPublications;
import jakarta.persistence.EntityManager;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.modulith.events.core.EventSerializer;
import org.springframework.modulith.events.support.CompletionMode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring Modulith's JPA event publication registry, with two costs of every in-process event taken out (both found
 * by profiling the order benchmark):
 *
 * <ul>
 *   <li>the event is serialized with Boot's {@link JsonMapper}, resolved once: Modulith's own serializer looks the
 *       mapper up in the bean factory for every event, inside the order's transaction;</li>
 *   <li>the registry's per-event state changes ("processing", "completed") are native SQL
 *       ({@link NativeStatusEventPublications}) instead of HQL that Hibernate translates anew on every call.</li>
 * </ul>
 *
 * The publication is still a JPA entity written in the order's transaction by Modulith's JPA repository.
 */
@Configuration(proxyBeanMethods = false)
class ModulithEventsConfiguration {

    /** The same serialization as Modulith's Jackson serializer with Boot's mapper, without a lookup per event. */
    @Bean
    EventSerializer eventSerializer(JsonMapper mapper) {
        return new EventSerializer() {
            @Override
            public Object serialize(Object event) {
                return mapper.writeValueAsString(event);
            }

            @Override
            public <T> T deserialize(Object serialized, Class<T> type) {
                return mapper.readerFor(type).readValue(serialized.toString());
            }
        };
    }

    @Bean
    @Primary
    EventPublicationRepository nativeStatusEventPublications(
            @Qualifier("jpaEventPublicationRepository") EventPublicationRepository jpa, EntityManager entityManager,
            Environment environment) {
        return new NativeStatusEventPublications(jpa, entityManager,
                CompletionMode.from(environment) == CompletionMode.DELETE);
    }
}
