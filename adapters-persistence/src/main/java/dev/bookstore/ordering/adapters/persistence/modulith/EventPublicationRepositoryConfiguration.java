package dev.bookstore.ordering.adapters.persistence.modulith;

import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
import org.springframework.modulith.events.core.DefaultEventPublicationRegistry;
import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.modulith.events.core.EventSerializer;
import org.springframework.modulith.events.support.CompletionMode;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The event publication repository Spring Modulith's registry uses: its JDBC repository (the bean
 * {@code jdbcEventPublicationRepository}), with the per-event insert and state changes issued here
 * ({@link NativeStatusEventPublications}); and the registry itself, without the transactions per event that write
 * nothing ({@link ListenerTransactionEventPublicationRegistry}).
 */
@Configuration(proxyBeanMethods = false)
class EventPublicationRepositoryConfiguration {

    @Bean
    @Primary
    NativeStatusEventPublications nativeStatusEventPublications(
            @Qualifier("jdbcEventPublicationRepository") EventPublicationRepository registry, DataSource dataSource,
            EventSerializer serializer, Environment environment) {
        return new NativeStatusEventPublications(registry, dataSource, serializer, completionDeletes(environment));
    }

    /**
     * Puts {@link ListenerTransactionEventPublicationRegistry} in the place of the registry Spring Modulith's
     * auto-configuration creates, before it is proxied for its transactions. Replaced rather than added beside it:
     * Spring Modulith looks the registry up by type, and a second one would also log the outstanding publications
     * again at shutdown.
     */
    @Bean
    static BeanPostProcessor eventPublicationRegistryWithoutEmptyTransactions(
            ObjectProvider<NativeStatusEventPublications> publications, ObjectProvider<Clock> clock,
            ObjectProvider<PlatformTransactionManager> transactions, Environment environment) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean.getClass() != DefaultEventPublicationRegistry.class) {
                    return bean;
                }
                return new ListenerTransactionEventPublicationRegistry(publications.getObject(),
                        clock.getIfAvailable(Clock::systemUTC), transactions.getObject(),
                        completionDeletes(environment));
            }
        };
    }

    private static boolean completionDeletes(Environment environment) {
        return CompletionMode.from(environment) == CompletionMode.DELETE;
    }
}
