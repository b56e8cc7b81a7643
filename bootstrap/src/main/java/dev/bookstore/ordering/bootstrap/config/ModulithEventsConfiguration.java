package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.adapters.modulith.AutoCommitCompletionRegistry;
import dev.bookstore.ordering.adapters.modulith.FailedPublicationsResubmission;
import dev.bookstore.ordering.adapters.modulith.IncompletePublicationsGauge;
import dev.bookstore.ordering.adapters.modulith.ListenerConnectionWait;
import dev.bookstore.ordering.adapters.web.ListenerBacklog;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.IntSupplier;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.modulith.events.FailedEventPublications;
import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.config.FixedDelayTask;

/**
 * Spring Modulith's event publication registry as it comes (its JDBC repository, its Jackson serializer, its
 * staleness monitor, {@code spring.modulith.events.*}) with one change that a measurement showed worth its lines
 * ({@link AutoCommitCompletionRegistry}, docs/decisions/0013-modulith-registry.md), plus the two scheduled jobs it lacks:
 * the resubmission of failed publications and the gauge of incomplete ones, and the admission that keeps the
 * listeners' queue bounded ({@link ModulithProperties}). The listeners run on Boot's {@code applicationTaskExecutor}
 * ({@code spring.task.execution.*}), after the order's commit, so an order's response never waits for them. A
 * listener run that finds the API's pool exhausted waits for a connection ({@link ListenerConnectionWait}) rather
 * than failing.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class ModulithEventsConfiguration {

    /** Boot's task executor, which runs the {@code @ApplicationModuleListener} methods. */
    private static final String LISTENER_EXECUTOR = "applicationTaskExecutor";

    @Bean
    static BeanPostProcessor autoCommitCompletionRegistry(ObjectProvider<EventPublicationRepository> publications,
                                                          ObjectProvider<Clock> clock, Environment environment) {
        return AutoCommitCompletionRegistry.inPlaceOfSpringModulithsRegistry(publications, clock, environment);
    }

    @Bean
    FailedPublicationsResubmission failedPublicationsResubmission(FailedEventPublications failed,
                                                                  ModulithProperties properties) {
        return new FailedPublicationsResubmission(failed, properties.resubmitMaxInFlight());
    }

    @Bean
    IncompletePublicationsGauge incompletePublicationsGauge(EventPublicationRepository publications,
                                                            MeterRegistry registry) {
        return new IncompletePublicationsGauge(publications, registry);
    }

    /** Both jobs on every instance at their intervals; the first resubmission one interval after the start. */
    @Bean
    SchedulingConfigurer modulithJobs(FailedPublicationsResubmission resubmission, IncompletePublicationsGauge gauge,
                                      ModulithProperties properties) {
        return registrar -> {
            registrar.addFixedDelayTask(new FixedDelayTask(resubmission::resubmit, properties.resubmitInterval(),
                    properties.resubmitInterval()));
            registrar.addFixedDelayTask(new FixedDelayTask(gauge::refresh,
                    properties.incompletePublicationsInterval(), Duration.ZERO));
        };
    }

    /**
     * The admission of requests that give the in-process listeners work ({@link ListenerBacklog}), measured on the
     * listeners' executor (Boot's {@code applicationTaskExecutor}); with an executor that has no queue (virtual
     * threads) nothing is refused.
     */
    @Bean
    ListenerBacklog listenerBacklog(@Qualifier("applicationTaskExecutor") ObjectProvider<Executor> listenerExecutor,
                                    ModulithProperties properties, MeterRegistry registry) {
        IntSupplier queued = listenerExecutor.getIfAvailable() instanceof ThreadPoolTaskExecutor pool
                ? pool::getQueueSize
                : () -> 0;
        return new ListenerBacklog(queued, properties.maxQueuedListenerRuns(), registry);
    }

    /**
     * On stop the listener executor finishes its queued runs (spring.task.execution.shutdown.await-termination) when
     * it is destroyed; the data sources must still be open then. Declared as a dependency, the executor is destroyed
     * before them; otherwise the pool closed first and every run still queued failed on it.
     */
    @Bean
    static BeanFactoryPostProcessor listenerExecutorStopsBeforeTheDataSources() {
        return beanFactory -> {
            if (!beanFactory.containsBeanDefinition(LISTENER_EXECUTOR)) {
                return;
            }
            for (String dataSource : beanFactory.getBeanNamesForType(DataSource.class, false, false)) {
                beanFactory.registerDependentBean(dataSource, LISTENER_EXECUTOR);
            }
        };
    }

    @Bean
    ListenerConnectionWait listenerConnectionWait(ModulithProperties properties) {
        return new ListenerConnectionWait(properties.listenerConnectionWait());
    }
}
