package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.modulith.CustomerOrderSummaryListener;
import dev.bookstore.ordering.adapters.modulith.FailedPublicationsResubmission;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import dev.bookstore.ordering.domain.shared.Money;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.events.config.StalenessProperties;
import org.springframework.modulith.events.core.EventPublicationRegistry;
import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.modulith.events.core.PublicationTargetIdentifier;
import org.springframework.modulith.events.core.TargetEventPublication;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What a round of Spring Modulith's staleness monitor and the scheduled resubmission hands over again, on each engine
 * (PostgreSQL, MariaDB), one subclass per engine with a database of its own: publications whose listener failed, and
 * publications that waited for their listener longer than {@code spring.modulith.events.staleness.*} allows (their
 * instance stopped); never a publication still waiting its turn; and no more than {@code resubmit-max-in-flight} at
 * once. The publications are written through the registry's repository, as the order's transaction writes them, with
 * the times each case needs; "handed over" shows as the listener counting the event and the publication completing
 * (deleted).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class IncompletePublicationsResubmissionContract {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final PublicationTargetIdentifier ORDER_PLACED =
            PublicationTargetIdentifier.of(CustomerOrderSummaryListener.ORDER_PLACED_ID);

    /** The engine of the subclass's database. */
    protected abstract TestEngine engine();

    /** The service's properties on {@code database}, for a subclass's {@code @DynamicPropertySource}. */
    static void register(DynamicPropertyRegistry registry, TestDatabase database) {
        WritePathService.register(registry, database);
        // the tests run the rounds themselves, through the scheduled jobs' methods
        registry.add("ordering.modulith.resubmit-interval", () -> "1h");
        registry.add("spring.modulith.events.staleness.check-intervall", () -> "1h");
        registry.add("spring.modulith.events.staleness.published", () -> "5m");
        registry.add("spring.modulith.events.staleness.resubmitted", () -> "5m");
        registry.add("ordering.modulith.resubmit-max-in-flight", () -> "3");
    }

    @Autowired
    FailedPublicationsResubmission resubmission;

    @Autowired
    EventPublicationRegistry registry;

    @Autowired
    StalenessProperties staleness;

    @Autowired
    EventPublicationRepository publications;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    JdbcTemplate jdbc;

    @AfterEach
    void deletePublications() {
        jdbc.update("DELETE FROM " + publicationTable());
    }

    @Test
    void aRoundResubmitsFailedAndAbandonedPublicationsButNoneStillWaitingItsTurn() {
        Instant now = Instant.now();
        Instant longAgo = now.minus(10, ChronoUnit.MINUTES);
        TargetEventPublication waiting = store(now);
        TargetEventPublication abandoned = store(longAgo);
        TargetEventPublication failed = store(now);
        inTransaction(() -> publications.markFailed(failed.getIdentifier()));
        // resubmitted a moment ago: waiting its turn again (one of the three allowed in flight)
        TargetEventPublication resubmitted = store(now);
        jdbc.update("UPDATE " + publicationTable() + " SET status = 'RESUBMITTED', last_resubmission_date = ? "
                + "WHERE id = ?", resubmissionDate(now), id(resubmitted));

        round();

        await().atMost(WAIT).until(() -> !exists(abandoned) && !exists(failed));
        assertThat(counted(abandoned)).isTrue();
        assertThat(counted(failed)).isTrue();
        assertThat(statusOf(waiting)).isEqualTo("PUBLISHED");
        assertThat(statusOf(resubmitted)).isEqualTo("RESUBMITTED");
        assertThat(counted(waiting)).isFalse();
        assertThat(counted(resubmitted)).isFalse();
    }

    @Test
    void aRoundHandsOverNoMoreThanMaxInFlight() {
        List<TargetEventPublication> failed = List.of(store(Instant.now()), store(Instant.now()),
                store(Instant.now()), store(Instant.now()));
        failed.forEach(publication -> inTransaction(() -> publications.markFailed(publication.getIdentifier())));

        round();

        // three went out and completed; the fourth waits for the next round, still failed
        await().atMost(WAIT).until(() -> count("status <> 'FAILED'") == 0 && count("status = 'FAILED'") == 1);
        assertThat(failed.stream().filter(this::counted)).hasSize(3);

        round();

        await().atMost(WAIT).until(() -> count("completion_date IS NULL") == 0);
        assertThat(failed.stream().filter(this::counted)).hasSize(4);
    }

    /** What every instance does on its schedules: stale publications marked failed, then the failed resubmitted. */
    private void round() {
        registry.markStalePublicationsFailed(staleness);
        resubmission.resubmit();
    }

    /** A publication of a new order's event for the summary listener, stored at {@code at}, nobody working on it. */
    private TargetEventPublication store(Instant at) {
        OrderPlaced event = new OrderPlaced(UUID.randomUUID(), at, new OrderId(UUID.randomUUID()),
                new CustomerId(UUID.randomUUID()), Money.of("10.00", "EUR"), List.of());
        TargetEventPublication publication = TargetEventPublication.of(event, ORDER_PLACED, at);
        inTransaction(() -> publications.create(publication));
        return publication;
    }

    private void inTransaction(Runnable work) {
        new TransactionTemplate(transactions).executeWithoutResult(status -> work.run());
    }

    private boolean exists(TargetEventPublication publication) {
        return jdbc.queryForObject("SELECT count(*) FROM " + publicationTable() + " WHERE id = ?", Long.class,
                id(publication)) > 0;
    }

    private String statusOf(TargetEventPublication publication) {
        return jdbc.queryForObject("SELECT status FROM " + publicationTable() + " WHERE id = ?", String.class,
                id(publication));
    }

    private long count(String condition) {
        return jdbc.queryForObject("SELECT count(*) FROM " + publicationTable() + " WHERE " + condition, Long.class);
    }

    /** Whether the summary listener counted the publication's event. */
    private boolean counted(TargetEventPublication publication) {
        UUID eventId = ((OrderPlaced) publication.getEvent()).eventId();
        return jdbc.queryForObject("SELECT count(*) FROM customer_order_summary_event WHERE event_id = ?",
                Long.class, engine().database().id(eventId)) > 0;
    }

    private String publicationTable() {
        return EventPublications.table(engine());
    }

    /** A publication's id as a statement parameter on this engine (a uuid on PostgreSQL, text on MariaDB). */
    private Object id(TargetEventPublication publication) {
        return engine().database().id(publication.getIdentifier());
    }

    /**
     * A resubmission date as Spring Modulith binds its own ({@code Timestamp.from}, for MariaDB's {@code timestamp(6)}
     * columns), or as an offset date-time on PostgreSQL's {@code timestamptz}.
     */
    private Object resubmissionDate(Instant at) {
        return switch (engine()) {
            case POSTGRESQL -> at.atOffset(ZoneOffset.UTC);
            case MARIADB -> Timestamp.from(at);
        };
    }
}
