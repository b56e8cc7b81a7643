package dev.bookstore.ordering.adapters.persistence.modulith;

import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.springframework.modulith.events.EventPublication.Status;
import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.modulith.events.core.PublicationTargetIdentifier;
import org.springframework.modulith.events.core.TargetEventPublication;

/**
 * Spring Modulith's JPA event publication repository with its three per-event state changes issued as native SQL
 * through the same {@link EntityManager}, in the same transaction.
 *
 * <p>Every in-process event costs the registry two writes after the order's commit: "processing" when its listener
 * starts and "completed" (a delete, {@code completion-mode: delete}) when it returns, each in a transaction of its
 * own. The JPA repository issues both as HQL {@code update}/{@code delete} statements, and Hibernate 7 never caches
 * the plan of a non-select HQL statement ({@code SqmInterpretationsKey.generateNonSelectKey} returns no key): each
 * call parsed and translated its HQL again, which a profile of the order benchmark showed as 60 % of each registry
 * call and about 7 % of the service's CPU per order. The statements here are the SQL those HQL statements
 * translate to, with the same conditions; Hibernate binds the parameters by their Java types through the
 * dialect (the id as a {@link UUID}, the status as its name, as the entity maps it). Checked on PostgreSQL by
 * {@code CustomerOrderSummaryIT}; on SQL Server only by the dialect-level test here.
 *
 * <p>Everything else, the insert in the order's transaction above all, is the JPA repository's own. In a completion
 * mode other than {@code delete}, completing goes to the JPA repository too.
 */
public final class NativeStatusEventPublications implements EventPublicationRepository {

    /** The JPA repository's {@code UPDATE} statement (status changes only once per value). Both databases. */
    static final String UPDATE_STATUS =
            "UPDATE event_publication SET status = ?1 WHERE id = ?2 AND status <> ?1";

    /** The JPA repository's {@code DELETE_BY_ID} in completion mode {@code delete}. Both databases. */
    static final String DELETE_BY_ID = "DELETE FROM event_publication WHERE id = ?1";

    private final EventPublicationRepository jpa;
    private final EntityManager entityManager;
    private final boolean completionDeletes;

    /**
     * @param jpa the JPA repository everything but the three state changes goes to
     * @param entityManager the shared, transaction-bound entity manager the JPA repository uses
     * @param completionDeletes whether {@code spring.modulith.events.completion-mode} is {@code delete}
     */
    public NativeStatusEventPublications(EventPublicationRepository jpa, EntityManager entityManager,
                                         boolean completionDeletes) {
        this.jpa = Objects.requireNonNull(jpa, "jpa");
        this.entityManager = Objects.requireNonNull(entityManager, "entityManager");
        this.completionDeletes = completionDeletes;
    }

    @Override
    public void markProcessing(UUID identifier) {
        updateStatus(identifier, Status.PROCESSING);
    }

    @Override
    public void markFailed(UUID identifier) {
        updateStatus(identifier, Status.FAILED);
    }

    @Override
    public void markCompleted(UUID identifier, Instant completionDate) {
        if (!completionDeletes) {
            jpa.markCompleted(identifier, completionDate);
            return;
        }
        entityManager.createNativeQuery(DELETE_BY_ID).setParameter(1, identifier).executeUpdate();
    }

    private void updateStatus(UUID identifier, Status status) {
        entityManager.createNativeQuery(UPDATE_STATUS)
                .setParameter(1, status.name())
                .setParameter(2, identifier)
                .executeUpdate();
    }

    // ---- the JPA repository's own -------------------------------------------------------------------------------

    @Override
    public TargetEventPublication create(TargetEventPublication publication) {
        return jpa.create(publication);
    }

    @Override
    public void markCompleted(Object event, PublicationTargetIdentifier identifier, Instant completionDate) {
        jpa.markCompleted(event, identifier, completionDate);
    }

    @Override
    public boolean markResubmitted(UUID identifier, Instant resubmissionDate) {
        return jpa.markResubmitted(identifier, resubmissionDate);
    }

    @Override
    public List<TargetEventPublication> findIncompletePublications() {
        return jpa.findIncompletePublications();
    }

    @Override
    public List<TargetEventPublication> findIncompletePublicationsPublishedBefore(Instant instant) {
        return jpa.findIncompletePublicationsPublishedBefore(instant);
    }

    @Override
    public Optional<TargetEventPublication> findIncompletePublicationsByEventAndTargetIdentifier(
            Object event, PublicationTargetIdentifier targetIdentifier) {
        return jpa.findIncompletePublicationsByEventAndTargetIdentifier(event, targetIdentifier);
    }

    @Override
    public List<TargetEventPublication> findCompletedPublications() {
        return jpa.findCompletedPublications();
    }

    @Override
    public List<TargetEventPublication> findFailedPublications(FailedCriteria criteria) {
        return jpa.findFailedPublications(criteria);
    }

    @Override
    public List<TargetEventPublication> findByStatus(Status status) {
        return jpa.findByStatus(status);
    }

    @Override
    public int countByStatus(Status status) {
        return jpa.countByStatus(status);
    }

    @Override
    public void deletePublications(List<UUID> identifiers) {
        jpa.deletePublications(identifiers);
    }

    @Override
    public void deleteCompletedPublications() {
        jpa.deleteCompletedPublications();
    }

    @Override
    public void deleteCompletedPublicationsBefore(Instant instant) {
        jpa.deleteCompletedPublicationsBefore(instant);
    }
}
