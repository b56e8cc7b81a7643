package dev.bookstore.ordering.adapters.persistence.modulith;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.WriteBehind;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.events.EventPublication.Status;
import org.springframework.modulith.events.core.EventSerializer;
import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.modulith.events.core.PublicationTargetIdentifier;
import org.springframework.modulith.events.core.TargetEventPublication;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Spring Modulith's JDBC event publication repository with its per-event writes issued here, on the caller's
 * connection, in the same transactions: the insert in the order's transaction, and the state changes after it.
 *
 * <p>Spring Modulith's registry changes a publication's state twice after the order's commit: "processing" when its
 * listener starts and "completed" (a delete, {@code completion-mode: delete}) when it returns, each in a transaction of
 * its own (and "failed" when the listener throws). The statements here are the ones Spring Modulith's repositories
 * issue for them, with the same conditions. (They were written when the registry was Spring Modulith's JPA one, whose
 * HQL {@code update}/{@code delete} statements Hibernate parsed again on every call; the JDBC repository has no such
 * cost, but binds times as {@code java.sql.Timestamp}, which SQL Server's driver sends in the JVM's time zone into a
 * {@code datetimeoffset} column: the insert here binds UTC {@link OffsetDateTime}s on both databases.)
 *
 * <p>They go through a {@link JdbcTemplate} on the API's {@link DataSource}, so they join the transaction that is
 * active on it, exactly as the order and outbox statements do. Parameters are bound as the other JDBC adapters
 * bind them: the id as a {@link UUID} on PostgreSQL and as its text for SQL Server's {@code uniqueidentifier}, times as
 * UTC {@link OffsetDateTime}s, the status as its name. Checked on PostgreSQL by {@code CustomerOrderSummaryIT}; on SQL
 * Server only by the dialect-level test here.
 *
 * <p>The insert ({@link #create}) is the row Spring Modulith's repository writes for a new publication, with the
 * event serialized by the same {@link EventSerializer} and the event type stored as its class name; {@code
 * CustomerOrderSummaryIT} reads such a row back through Spring Modulith's JDBC repository.
 *
 * <p><b>Completion in the listener's own transaction.</b> Spring Modulith runs a listener between two registry calls of
 * its own, each in a transaction of its own ({@code REQUIRES_NEW}): "processing" before it, "completed" after it; with
 * the listener's, three transactions and three commits per event (a profile of the order benchmark put them at 60 % of
 * the listener threads' CPU). Here "processing" writes nothing: it only remembers, for the listener thread, which
 * publication is being handed over (nothing in this project reads the PROCESSING status: the sweep of abandoned
 * publications treats it as PUBLISHED). A listener that calls {@link #completeInCurrentTransaction(Object, String)}
 * deletes its publication in its own transaction, so its effect and the completion commit or roll back together, and
 * the "completed" call after it finds nothing left to do: one commit per event, and no window in which the effect is
 * committed but the publication is not. A listener that does not call it is completed as before, by the registry's call
 * after it returns. Since neither registry call then needs a transaction, {@link
 * ListenerTransactionEventPublicationRegistry} opens none for them.
 *
 * <p>Everything else (reading, resubmitting, deleting in bulk) is Spring Modulith's JDBC repository's own. In a
 * completion mode other than {@code delete}, completing goes to that repository too.
 */
public final class NativeStatusEventPublications implements EventPublicationRepository {

    /** A new publication's row, as Spring Modulith's repository writes it. Both databases. */
    static final String INSERT = "INSERT INTO event_publication (id, listener_id, event_type, serialized_event,"
            + " publication_date, status, completion_attempts, last_resubmission_date)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    /**
     * Spring Modulith's status {@code UPDATE} (status changes only once per value). Both databases.
     * Parameters: status, id, status.
     */
    static final String UPDATE_STATUS =
            "UPDATE event_publication SET status = ? WHERE id = ? AND status <> ?";

    /**
     * A listener's completion of the publication handed to it, by id and listener; that it is that listener's
     * publication of that event was checked in memory ({@link #completeInCurrentTransaction}). Both databases.
     */
    static final String DELETE_HANDED_OVER = "DELETE FROM event_publication WHERE id = ? AND listener_id = ?";

    /**
     * PostgreSQL only: {@link #DELETE_HANDED_OVER} and, where it deleted the publication, the current transaction's
     * commit set to return without waiting for its WAL to reach the disk ({@code set_config(..., true)}, as
     * {@code SET LOCAL}: this transaction only), in one statement and one round trip. A row per publication deleted;
     * none, and the commit stays durable, where the publication was gone. Sent by {@link #completeInCurrentTransaction}
     * for a listener's transaction, which its completion makes safe to lose in a crash (see there). SQL Server's
     * counterpart, delayed durability, needs a database option set by its administrator; there the listener's commit
     * stays durable. Parameters: id, listener.
     */
    static final String DELETE_HANDED_OVER_COMMITTING_ASYNCHRONOUSLY = "WITH completed AS (" + DELETE_HANDED_OVER
            + " RETURNING id) SELECT set_config('synchronous_commit', 'off', true) FROM completed";

    /**
     * Spring Modulith's delete by event and listener in completion mode {@code delete}: a publication
     * completed by its event and listener (where the registry no longer holds it in progress). Both databases.
     */
    static final String DELETE_BY_EVENT_AND_LISTENER =
            "DELETE FROM event_publication WHERE serialized_event = ? AND listener_id = ?";

    /** Spring Modulith's delete by id in completion mode {@code delete}. Both databases. */
    static final String DELETE_BY_ID = "DELETE FROM event_publication WHERE id = ?";

    /** The event and listener the registry is about to hand a publication to, on this thread. */
    private static final ThreadLocal<HandOver> ANNOUNCED = new ThreadLocal<>();
    /** The publication Spring Modulith hands to the listener that runs next on this thread. */
    private static final ThreadLocal<HandOver> HANDED_OVER = new ThreadLocal<>();
    /** The publication the listener on this thread deleted in its transaction, which committed. */
    private static final ThreadLocal<UUID> COMPLETED_WITH_LISTENER = new ThreadLocal<>();

    private final EventPublicationRepository registry;
    private final JdbcTemplate jdbc;
    private final WriteBehind writes;
    private final Database database;
    private final EventSerializer serializer;
    private final boolean completionDeletes;

    /**
     * @param registry Spring Modulith's repository, which everything but the insert and the state changes goes to
     * @param dataSource the data source of that repository (its transactions' connection)
     * @param serializer the serializer that repository uses for the events
     * @param completionDeletes whether {@code spring.modulith.events.completion-mode} is {@code delete}
     */
    public NativeStatusEventPublications(EventPublicationRepository registry, DataSource dataSource,
                                         EventSerializer serializer, boolean completionDeletes) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.jdbc = new JdbcTemplate(Objects.requireNonNull(dataSource, "dataSource"));
        this.database = Database.of(dataSource);
        this.writes = new WriteBehind(dataSource, database);
        this.serializer = Objects.requireNonNull(serializer, "serializer");
        this.completionDeletes = completionDeletes;
    }

    /**
     * Stores a new publication in the caller's transaction, written behind ({@link WriteBehind}: on PostgreSQL with
     * the transaction's other inserts, in one round trip before its commit). A publication without a last
     * resubmission date (the registry's new publications carry their publication date there) goes to Spring
     * Modulith's repository.
     */
    @Override
    public TargetEventPublication create(TargetEventPublication publication) {
        if (publication.getLastResubmissionDate() == null) {
            return registry.create(publication);
        }
        Object event = publication.getEvent();
        Status status = publication.getStatus();
        writes.write(INSERT,
                database.id(publication.getIdentifier()),
                publication.getTargetIdentifier().getValue(),
                event.getClass().getName(),
                serialized(event),
                timestamp(publication.getPublicationDate()),
                // as Spring Modulith's publications do, a missing status is PROCESSING
                (status != null ? status : Status.PROCESSING).name(),
                publication.getCompletionAttempts(),
                timestamp(publication.getLastResubmissionDate()));
        return publication;
    }

    /**
     * Says, for this thread, which event and listener the next {@link #markProcessing(UUID)} hands its publication
     * to. {@link ListenerTransactionEventPublicationRegistry} calls it around Spring Modulith's own "processing"
     * (which knows both but passes only the publication's id on), and {@link #handOverAnnounced()} after it.
     *
     * @param event the event being handed over
     * @param listenerId the id of the listener it is handed to
     */
    void handingOver(Object event, String listenerId) {
        ANNOUNCED.set(new HandOver(null, event, listenerId));
    }

    /** Ends what {@link #handingOver} said, whether or not a publication was handed over. */
    void handOverAnnounced() {
        ANNOUNCED.remove();
    }

    /**
     * Remembers, for this thread, the publication whose listener runs next on it, with the event and listener it
     * was announced for ({@link #handingOver}); writes nothing (see the class comment). Spring Modulith calls it on
     * the listener's thread, just before the listener. Without an announcement nothing is remembered: the listener
     * cannot complete the publication, and the registry's call after it does.
     */
    @Override
    public void markProcessing(UUID identifier) {
        COMPLETED_WITH_LISTENER.remove();
        HandOver announced = ANNOUNCED.get();
        ANNOUNCED.remove();
        if (announced == null) {
            HANDED_OVER.remove();
        } else {
            HANDED_OVER.set(new HandOver(identifier, announced.event(), announced.listenerId()));
        }
    }

    /**
     * Deletes the publication being handed to the listener that runs on this thread, in the transaction of that
     * listener, which must be active: its effect and the completion then commit together, and the registry's
     * completion after the listener writes nothing. Does nothing (and answers false) where the registry did not say
     * which event and listener it hands a publication to ({@link #handingOver}), where the publication handed over
     * is not this listener's of this event, or where completion does not delete; the registry completes it then, as
     * for any listener.
     *
     * <p>Whether it is this listener's publication of this event is checked in memory, against what the registry
     * announced. (It was once checked by the {@code DELETE}'s conditions on the stored event, serialized again for
     * it: in a profile of the order benchmark that serialization was a fifth of the listener threads' CPU.)
     *
     * <p><b>The listener's commit does not wait for the disk</b> (PostgreSQL, {@link
     * #DELETE_HANDED_OVER_COMMITTING_ASYNCHRONOUSLY}). What it commits is the listener's effect and the completion of
     * the publication, together. A database crash can lose the last such commits (at most about three times {@code
     * wal_writer_delay}, 600 ms by default), but only whole: the effect and the completion are lost together, the
     * publication is incomplete again after the restart, and the registry hands it to the listener once more (on start
     * and on its schedule). Nothing is lost and nothing is applied twice by it; the order and its outbox row, committed
     * before the event reached the listener, stay durable. Without it every event cost a commit that waited for a WAL
     * flush of its own: the listeners, a handful of threads on the API's pool, each held a connection (and the row lock
     * of a busy customer's summary) through that wait, and under load they fell behind the requests and took the
     * connections the requests needed.
     *
     * <p><b>On PostgreSQL the {@code DELETE} is written behind</b> ({@link WriteBehind}): it goes with the listener's
     * next statement sent through that class (the summary's, {@code JdbcCustomerOrderSummaries}), in one round trip,
     * or just before the commit. A publication gone by then (another instance completed it) deletes nothing, and that
     * commit stays durable; the registry's completion after the listener then runs as for any listener.
     *
     * @param event the event the listener handles
     * @param listenerId the listener's id ({@code @ApplicationModuleListener(id = ...)})
     * @return whether the publication is completed with the current transaction: on SQL Server whether it was
     *         deleted; on PostgreSQL whether its {@code DELETE} is written with it
     */
    public boolean completeInCurrentTransaction(Object event, String listenerId) {
        HandOver handedOver = HANDED_OVER.get();
        if (handedOver == null || !completionDeletes) {
            return false;
        }
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException(
                    "A publication is completed with its listener's transaction; none is active");
        }
        HANDED_OVER.remove();
        if (!handedOver.isFor(event, listenerId)) {
            return false;
        }
        UUID identifier = handedOver.id();
        Completion completion = new Completion(identifier);
        if (database == Database.POSTGRESQL) {
            writes.write(DELETE_HANDED_OVER_COMMITTING_ASYNCHRONOUSLY,
                    (rows, count) -> completion.deleted = rows.next(), database.id(identifier), listenerId);
        } else {
            completion.deleted = jdbc.update(DELETE_HANDED_OVER, database.id(identifier), listenerId) > 0;
            if (!completion.deleted) {
                return false;
            }
        }
        TransactionSynchronizationManager.registerSynchronization(completion);
        return true;
    }

    /** A listener's completion of its publication: after the commit, whether its {@code DELETE} found the row. */
    private static final class Completion implements TransactionSynchronization {

        private final UUID identifier;
        /** Set when the {@code DELETE} was sent: on PostgreSQL with the listener's next statement or at its commit. */
        private boolean deleted;

        Completion(UUID identifier) {
            this.identifier = identifier;
        }

        @Override
        public void afterCommit() {
            if (deleted) {
                COMPLETED_WITH_LISTENER.set(identifier);
            }
        }
    }

    @Override
    public void markFailed(UUID identifier) {
        HANDED_OVER.remove();
        COMPLETED_WITH_LISTENER.remove();
        updateStatus(identifier, Status.FAILED);
    }

    /**
     * Completes a publication by its event and listener: in completion mode {@code delete} one {@code DELETE}, atomic
     * on its own (no transaction needed, see {@link ListenerTransactionEventPublicationRegistry}); otherwise Spring
     * Modulith's repository's.
     */
    @Override
    public void markCompleted(Object event, PublicationTargetIdentifier identifier, Instant completionDate) {
        HANDED_OVER.remove();
        COMPLETED_WITH_LISTENER.remove();
        if (completionDeletes) {
            jdbc.update(DELETE_BY_EVENT_AND_LISTENER, serialized(event), identifier.getValue());
        } else {
            registry.markCompleted(event, identifier, completionDate);
        }
    }

    @Override
    public void markCompleted(UUID identifier, Instant completionDate) {
        HANDED_OVER.remove();
        boolean completedWithListener = identifier.equals(COMPLETED_WITH_LISTENER.get());
        COMPLETED_WITH_LISTENER.remove();
        if (!completionDeletes) {
            registry.markCompleted(identifier, completionDate);
        } else if (!completedWithListener) {
            jdbc.update(DELETE_BY_ID, database.id(identifier));
        }
    }

    /** The event as the registry stores it ({@code serialized_event}). */
    private String serialized(Object event) {
        return serializer.serialize(event).toString();
    }

    private void updateStatus(UUID identifier, Status status) {
        jdbc.update(UPDATE_STATUS, status.name(), database.id(identifier), status.name());
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    /**
     * A publication handed to a listener on this thread ({@code id}), with the event and listener the registry
     * announced it for; {@code id} is null in the announcement itself, before Spring Modulith names the publication.
     */
    private record HandOver(UUID id, Object event, String listenerId) {

        /** Whether the publication was handed over with this very event (or an equal one) to this listener. */
        boolean isFor(Object otherEvent, String otherListenerId) {
            return (event == otherEvent || event.equals(otherEvent)) && listenerId.equals(otherListenerId);
        }
    }

    // ---- Spring Modulith's repository's own -------------------------------------------------------------------------------

    @Override
    public boolean markResubmitted(UUID identifier, Instant resubmissionDate) {
        return registry.markResubmitted(identifier, resubmissionDate);
    }

    @Override
    public List<TargetEventPublication> findIncompletePublications() {
        return registry.findIncompletePublications();
    }

    @Override
    public List<TargetEventPublication> findIncompletePublicationsPublishedBefore(Instant instant) {
        return registry.findIncompletePublicationsPublishedBefore(instant);
    }

    @Override
    public Optional<TargetEventPublication> findIncompletePublicationsByEventAndTargetIdentifier(
            Object event, PublicationTargetIdentifier targetIdentifier) {
        return registry.findIncompletePublicationsByEventAndTargetIdentifier(event, targetIdentifier);
    }

    @Override
    public List<TargetEventPublication> findCompletedPublications() {
        return registry.findCompletedPublications();
    }

    @Override
    public List<TargetEventPublication> findFailedPublications(FailedCriteria criteria) {
        return registry.findFailedPublications(criteria);
    }

    @Override
    public List<TargetEventPublication> findByStatus(Status status) {
        return registry.findByStatus(status);
    }

    @Override
    public int countByStatus(Status status) {
        return registry.countByStatus(status);
    }

    @Override
    public void deletePublications(List<UUID> identifiers) {
        registry.deletePublications(identifiers);
    }

    @Override
    public void deleteCompletedPublications() {
        registry.deleteCompletedPublications();
    }

    @Override
    public void deleteCompletedPublicationsBefore(Instant instant) {
        registry.deleteCompletedPublicationsBefore(instant);
    }
}
