package dev.bookstore.ordering.adapters.modulith;

import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.env.Environment;
import org.springframework.modulith.events.core.DefaultEventPublicationRegistry;
import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.modulith.events.core.PublicationTargetIdentifier;
import org.springframework.modulith.events.support.CompletionMode;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Spring Modulith's registry without the two transactions it opens around every listener run. "Processing" writes
 * nothing (nothing here reads the PROCESSING status; staleness treats a publication that stays PUBLISHED alike), and
 * "completed" is the repository's one {@code DELETE} by id ({@code completion-mode: delete}), atomic in auto-commit.
 * Spring Modulith runs each in a {@code REQUIRES_NEW} transaction of its own: a pooled connection and a commit that
 * waits for the WAL, twice per event, which doubled the listener threads' CPU per order
 * (docs/decisions/0013-modulith-registry.md). The listener's effect still commits before its publication is completed;
 * "failed" and everything else are Spring Modulith's. Completing waits for a connection as the listener's run does
 * ({@link ListenerConnectionWait}): a run that succeeded is not left incomplete for want of one.
 */
public class AutoCommitCompletionRegistry extends DefaultEventPublicationRegistry {

    private final ListenerConnectionWait connections;

    public AutoCommitCompletionRegistry(EventPublicationRepository publications, Clock clock,
                                        ListenerConnectionWait connections) {
        super(publications, clock);
        this.connections = connections;
    }

    /**
     * Puts this registry in the place of the one Spring Modulith's auto-configuration creates, before it is proxied
     * for its transactions: replaced, not added, since Spring Modulith looks the registry up by type. Only where
     * completing is one {@code DELETE}; in another completion mode Spring Modulith's registry stays.
     */
    public static BeanPostProcessor inPlaceOfSpringModulithsRegistry(
            ObjectProvider<EventPublicationRepository> publications, ObjectProvider<Clock> clock,
            Environment environment) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean.getClass() != DefaultEventPublicationRegistry.class
                        || CompletionMode.from(environment) != CompletionMode.DELETE) {
                    return bean;
                }
                return new AutoCommitCompletionRegistry(publications.getObject(),
                        clock.getIfAvailable(Clock::systemUTC), ListenerConnectionWait.from(environment));
            }
        };
    }

    @Override
    @Transactional(propagation = Propagation.SUPPORTS)
    public void markProcessing(Object event, PublicationTargetIdentifier identifier) {
        // nothing to write: see the class comment
    }

    @Override
    @Transactional(propagation = Propagation.SUPPORTS)
    public void markCompleted(Object event, PublicationTargetIdentifier identifier) {
        connections.run(() -> super.markCompleted(event, identifier));
    }
}
