package dev.bookstore.ordering.bootstrap.config;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.modulith.events.core.EventSerializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The serializer of Spring Modulith's event publications: Boot's {@link JsonMapper}, resolved once. Modulith's own
 * Jackson serializer does the same with the same mapper but looks it up in the bean factory for every event, inside
 * the order's transaction (4.5 % of a request in the order benchmark's profile). The registry's per-event state
 * changes are the persistence adapter's ({@code EventPublicationRepositoryConfiguration}).
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
}
