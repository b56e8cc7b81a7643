package dev.bookstore.ordering.adapters.persistence.modulith;

import java.time.Clock;
import java.util.Objects;
import org.springframework.modulith.events.core.DefaultEventPublicationRegistry;
import org.springframework.modulith.events.core.PublicationTargetIdentifier;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Spring Modulith's event publication registry without the two transactions per event that write nothing.
 *
 * <p>Spring Modulith calls the registry around every run of an in-process listener: "processing" before it and
 * "completed" after it, each {@code @Transactional(propagation = REQUIRES_NEW)}. With {@link
 * NativeStatusEventPublications} neither writes anything for a listener that completes its publication in its own
 * transaction ({@link NativeStatusEventPublications#completeInCurrentTransaction(Object, String)}): "processing" only
 * remembers the publication for the listener's thread, and "completed" finds the row already gone. Yet each still
 * opened a transaction (a pooled connection taken and given back, the synchronizations; then a JPA one, with a
 * Hibernate session): a profile of the order benchmark on 2026-12-04 put the two at 30 % of the listener threads' CPU.
 *
 * <p>Here both run in no transaction ({@code SUPPORTS}: they join one where there is one). That loses nothing:
 * "processing" writes nothing, and "completed", in completion mode {@code delete}, is at most one {@code DELETE} of
 * one row ({@link NativeStatusEventPublications#markCompleted}), atomic on its own in auto-commit. In any other
 * completion mode "completed" is Spring Modulith's repository's, which needs a transaction: it gets its own, as before.
 * "Failed" and everything else are Spring Modulith's own.
 */
class ListenerTransactionEventPublicationRegistry extends DefaultEventPublicationRegistry {

    private final NativeStatusEventPublications publications;
    private final boolean completionDeletes;
    private final TransactionTemplate ownTransaction;

    /**
     * @param publications the repository; its state changes must be {@link NativeStatusEventPublications}'s
     * @param clock the registry's clock
     * @param transactions the transaction manager of Spring Modulith's repository (the data source's)
     * @param completionDeletes whether {@code spring.modulith.events.completion-mode} is {@code delete}
     */
    ListenerTransactionEventPublicationRegistry(NativeStatusEventPublications publications, Clock clock,
                                                PlatformTransactionManager transactions, boolean completionDeletes) {
        super(publications, clock);
        this.publications = publications;
        this.completionDeletes = completionDeletes;
        this.ownTransaction = new TransactionTemplate(Objects.requireNonNull(transactions, "transactions"));
        this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /**
     * Remembers the publication handed to the listener on this thread, with the event and the listener it is
     * handed to ({@link NativeStatusEventPublications#handingOver}: Spring Modulith passes only its id on); writes
     * nothing, so opens no transaction.
     */
    @Override
    @Transactional(propagation = Propagation.SUPPORTS)
    public void markProcessing(Object event, PublicationTargetIdentifier identifier) {
        publications.handingOver(event, identifier.getValue());
        try {
            super.markProcessing(event, identifier);
        } finally {
            publications.handOverAnnounced();
        }
    }

    /**
     * Completes the publication after its listener returned: nothing if the listener completed it in its own
     * transaction, otherwise one {@code DELETE} in auto-commit, or, in a completion mode other than {@code delete},
     * Spring Modulith's repository's update in a transaction of its own.
     */
    @Override
    @Transactional(propagation = Propagation.SUPPORTS)
    public void markCompleted(Object event, PublicationTargetIdentifier identifier) {
        if (completionDeletes) {
            super.markCompleted(event, identifier);
        } else {
            ownTransaction.executeWithoutResult(status -> super.markCompleted(event, identifier));
        }
    }
}
