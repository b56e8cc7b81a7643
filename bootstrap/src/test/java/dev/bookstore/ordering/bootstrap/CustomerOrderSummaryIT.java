package dev.bookstore.ordering.bootstrap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.persistence.modulith.NativeStatusEventPublications;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import dev.bookstore.ordering.application.ordering.OrderDetails;
import dev.bookstore.ordering.application.ordering.PlaceOrderCommand;
import dev.bookstore.ordering.application.ordering.PlaceOrderUseCase;
import dev.bookstore.ordering.application.summary.CustomerOrderSummaries;
import dev.bookstore.ordering.application.summary.CustomerOrderSummary;
import dev.bookstore.ordering.application.summary.GetCustomerOrderSummaryQuery;
import dev.bookstore.ordering.bootstrap.modulith.CustomerOrderSummaryListener;
import dev.bookstore.ordering.bootstrap.modulith.IncompletePublicationsResubmission;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import dev.bookstore.ordering.domain.shared.Money;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.events.core.EventPublicationRegistry;
import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.modulith.events.core.PublicationTargetIdentifier;
import org.springframework.modulith.events.core.TargetEventPublication;
import org.springframework.modulith.test.EnableScenarios;
import org.springframework.modulith.test.Scenario;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The customer order summary against a real PostgreSQL: the in-process {@code @ApplicationModuleListener} counts
 * the order events after each order's commit, the count shows through {@code /customers/.../order-summary}, a
 * listener that fails leaves its publication in Spring Modulith's registry and a resubmission counts the event
 * once. The relay is off: the summary does not depend on the broker.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("postgres")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@EnableScenarios
@Import(CustomerOrderSummaryIT.ListenerThreadTransactions.class)
class CustomerOrderSummaryIT {

    private static final TestPostgres.Database DATABASE = TestPostgres.newDatabase();
    private static final Duration WAIT = Duration.ofSeconds(30);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        WritePathService.register(registry, DATABASE);
        // The tests resubmit themselves (through the scheduled job's method), with no age limit.
        registry.add("ordering.modulith.resubmit-interval", () -> "1h");
        registry.add("ordering.modulith.resubmit-older-than", () -> "0s");
    }

    @AfterAll
    static void dropDatabase() {
        TestPostgres.drop(DATABASE);
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    PlaceOrderUseCase placeOrder;

    @Autowired
    GetCustomerOrderSummaryQuery summaries;

    @Autowired
    CustomerOrderSummaries summaryStore;

    @Autowired
    IncompletePublicationsResubmission resubmission;

    @Autowired
    EventPublicationRepository publications;

    @Autowired
    @Qualifier("jdbcEventPublicationRepository")
    EventPublicationRepository modulithPublications;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    EventPublicationRegistry eventPublicationRegistry;

    @Autowired
    ListenerThreadTransactions listenerThreadTransactions;

    HttpJson http;
    UUID customer;

    /**
     * Notes every transaction begun on a thread of the in-process listener's executor: its name, and the class of
     * its transaction manager's transaction object.
     */
    @TestConfiguration(proxyBeanMethods = false)
    static class ListenerThreadTransactions {

        final List<String> begun = new CopyOnWriteArrayList<>();

        @Bean
        TransactionExecutionListener listenerThreadTransactionLog() {
            return new TransactionExecutionListener() {
                @Override
                public void afterBegin(TransactionExecution transaction, Throwable beginFailure) {
                    if (Thread.currentThread().getName().startsWith("ordering-events")) {
                        Object object = ((DefaultTransactionStatus) transaction).getTransaction();
                        begun.add(transaction.getTransactionName() + " " + object.getClass().getName());
                    }
                }
            };
        }
    }

    @BeforeEach
    void newCustomer() {
        http = new HttpJson(port);
        customer = UUID.randomUUID();
    }

    @AfterEach
    void removeFailures() {
        jdbc.execute("DROP TRIGGER IF EXISTS summary_fails ON customer_order_summary_event");
        jdbc.execute("DROP TRIGGER IF EXISTS log_summary_event ON customer_order_summary_event");
        jdbc.execute("DROP TRIGGER IF EXISTS log_publication ON event_publication");
    }

    @Test
    void theListenersEffectAndItsPublicationsCompletionAreOneTransactionAndProcessingWritesNothing() {
        // Triggers note every write of the listener's path with the transaction that made it.
        jdbc.execute("CREATE TABLE IF NOT EXISTS test_write_log (n bigserial, write text, tx bigint)");
        jdbc.execute("TRUNCATE test_write_log");
        jdbc.execute("""
                CREATE OR REPLACE FUNCTION log_write() RETURNS trigger AS $$
                BEGIN
                  INSERT INTO test_write_log (write, tx) VALUES (TG_TABLE_NAME || ' ' || TG_OP, txid_current());
                  RETURN NULL;
                END $$ LANGUAGE plpgsql""");
        jdbc.execute("CREATE TRIGGER log_summary_event AFTER INSERT ON customer_order_summary_event "
                + "FOR EACH ROW EXECUTE FUNCTION log_write()");
        jdbc.execute("CREATE TRIGGER log_publication AFTER UPDATE OR DELETE ON event_publication "
                + "FOR EACH ROW EXECUTE FUNCTION log_write()");

        assertThat(http.postJson("/orders", HttpJson.orderJson(customer.toString(), 1)).status()).isEqualTo(201);
        await().atMost(WAIT).until(() -> incompletePublications() == 0
                && summaries.summaryOf(new CustomerId(customer)).ordersPlaced() == 1);

        List<Map<String, Object>> writes = jdbc.queryForList("SELECT write, tx FROM test_write_log ORDER BY n");
        // the summary's statement last: it locks the customer's summary row until the commit
        assertThat(writes).extracting(row -> row.get("write"))
                .containsExactly("event_publication DELETE", "customer_order_summary_event INSERT");
        assertThat(writes).extracting(row -> row.get("tx")).as("one transaction").containsOnly(writes.get(0).get("tx"));
    }

    @Test
    void anEventCostsTheListenerThreadOneTransactionTheListenersOwn() {
        await().atMost(WAIT).until(() -> incompletePublications() == 0);
        listenerThreadTransactions.begun.clear();

        assertThat(http.postJson("/orders", HttpJson.orderJson(customer.toString(), 1)).status()).isEqualTo(201);
        await().atMost(WAIT).until(() -> incompletePublications() == 0
                && summaries.summaryOf(new CustomerId(customer)).ordersPlaced() == 1);

        // Spring Modulith's "processing" before the listener and "completed" after it open none of their own; the
        // listener's (its annotation's) is a JDBC transaction
        assertThat(listenerThreadTransactions.begun).singleElement().asString()
                .startsWith(CustomerOrderSummaryListener.class.getName() + ".on ")
                .contains("DataSourceTransactionManager");
    }

    @Test
    void aCompletionByEventAndListenerDeletesThatPublicationOnlyAndNeedsNoTransaction() {
        TestEvent event = new TestEvent(UUID.randomUUID(), "completed by event and listener");
        UUID completed = storePublication(event);
        UUID otherListener = storePublication(event, null, "test.other-listener");
        UUID otherEvent = storePublication(new TestEvent(UUID.randomUUID(), "another event"));

        publications.markCompleted(event, PublicationTargetIdentifier.of(LISTENER), Instant.now());

        assertThat(publicationsWithId(completed)).isZero();
        assertThat(publicationsWithId(otherListener)).isOne();
        assertThat(publicationsWithId(otherEvent)).isOne();
        jdbc.update("DELETE FROM event_publication WHERE id IN (?, ?)", otherListener, otherEvent);
    }

    @Test
    void placedAndCancelledOrdersShowInTheCustomersSummary() {
        HttpJson.Response first = http.postJson("/orders", HttpJson.orderJson(customer.toString(), 1));
        HttpJson.Response second = http.postJson("/orders", HttpJson.orderJson(customer.toString(), 2));
        assertThat(second.status()).isEqualTo(201);
        String cancelled = first.json().get("id").asString();
        assertThat(http.as(TestTokens.customer(customer))
                .postJson("/orders/" + cancelled + "/cancel", "{\"reason\":\"changed my mind\"}").status())
                .isEqualTo(200);

        HttpJson mine = http.as(TestTokens.customer(customer));
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode summary = mine.get("/customers/me/order-summary").json();
            assertThat(summary.get("ordersPlaced").asLong()).isEqualTo(2);
            assertThat(summary.get("ordersCancelled").asLong()).isEqualTo(1);
        });
        HttpJson.Response summary = mine.get("/customers/me/order-summary");
        assertThat(summary.status()).isEqualTo(200);
        assertThat(summary.json().get("customerId").asString()).isEqualTo(customer.toString());
        assertThat(Instant.parse(summary.json().get("lastOrderAt").asString()))
                .isEqualTo(Instant.parse(second.json().get("placedAt").asString()));
        // An operator reads any customer's summary: the same one.
        assertThat(http.get("/customers/" + customer + "/order-summary").json()).isEqualTo(summary.json());
        // Every publication completed, and was deleted (completion-mode: delete).
        await().atMost(WAIT).until(() -> incompletePublications() == 0);
        assertThat(eventsCounted(customer)).isEqualTo(3);
    }

    @Test
    void aCustomerReadsOnlyItsOwnSummaryAndAnOperatorHasNoMe() {
        UUID other = UUID.randomUUID();

        assertThat(http.as(TestTokens.customer(customer)).get("/customers/" + customer + "/order-summary").status())
                .isEqualTo(200);
        HttpJson.Response foreign = http.as(TestTokens.customer(customer)).get("/customers/" + other
                + "/order-summary");
        assertThat(foreign.status()).isEqualTo(403);
        assertThat(foreign.header("Content-Type")).startsWith("application/problem+json");
        assertThat(http.as(TestTokens.operator()).get("/customers/me/order-summary").status()).isEqualTo(403);
        assertThat(http.anonymous().get("/customers/me/order-summary").status()).isEqualTo(401);
        JsonNode none = http.as(TestTokens.customer(other)).get("/customers/me/order-summary").json();
        assertThat(none.get("ordersPlaced").asLong()).isZero();
        assertThat(none.get("ordersCancelled").asLong()).isZero();
        assertThat(none.has("lastOrderAt")).isFalse();
    }

    @Test
    void placingAnOrderChangesTheSummaryThroughTheModuleListener(Scenario scenario) {
        scenario.stimulate(() -> placeOrder.placeOrder(PlaceOrderCommand.of(customer, "EUR",
                        List.of(new PlaceOrderCommand.Item("b-1", 2, new BigDecimal("9.95"))))))
                .andWaitAtMost(WAIT)
                .andWaitForStateChange(() -> summaries.summaryOf(new CustomerId(customer)),
                        summary -> summary.ordersPlaced() > 0)
                .andVerify((CustomerOrderSummary summary, OrderDetails order) -> {
                    assertThat(summary.ordersPlaced()).isOne();
                    assertThat(summary.ordersCancelled()).isZero();
                    assertThat(summary.lastOrderAt()).contains(order.placedAt());
                });
    }

    @Test
    void aListenerThatFailsOnceIsResubmittedAndCountsTheEventOnce(Scenario scenario) {
        failNextSummaryWrites(1);

        HttpJson.Response placed = http.postJson("/orders", HttpJson.orderJson(customer.toString(), 1));
        assertThat(placed.status()).isEqualTo(201);

        // The listener ran and threw: its publication stays in the registry, nothing was counted.
        await().atMost(WAIT).until(() -> failuresLeft() == 0 && failedPublications() == 1);
        assertThat(summaries.summaryOf(new CustomerId(customer)).ordersPlaced()).isZero();
        assertThat(eventsCounted(customer)).isZero();

        resubmission.resubmit();

        await().atMost(WAIT).until(() -> incompletePublications() == 0);
        assertThat(summaries.summaryOf(new CustomerId(customer)).ordersPlaced()).isOne();
        assertThat(eventsCounted(customer)).isOne();

        // The same event published again (as a second instance, or a publication resubmitted twice, would hand it
        // over): the listener runs, completes, and counts nothing more.
        OrderPlaced again = placedEvent(placed);
        scenario.publish(again)
                .andWaitAtMost(WAIT)
                .andWaitForStateChange(this::incompletePublications, count -> count == 0)
                .andVerify(count -> {
                    assertThat(summaries.summaryOf(new CustomerId(customer)).ordersPlaced()).isOne();
                    assertThat(eventsCounted(customer)).isOne();
                });
        resubmission.resubmit();
        assertThat(summaries.summaryOf(new CustomerId(customer)).ordersPlaced()).isOne();
    }

    @Test
    void theOrdersTransactionStoresOnePublicationPerListenerOfTheEvent() {
        failNextSummaryWrites(1);

        http.postJson("/orders", HttpJson.orderJson(customer.toString(), 1));

        // Written by the order's transaction, before the listener ran (and failed): it names the listener.
        await().atMost(WAIT).until(() -> failuresLeft() == 0 && failedPublications() == 1);
        assertThat(jdbc.queryForList("SELECT listener_id FROM event_publication WHERE completion_date IS NULL",
                String.class)).containsExactly(CustomerOrderSummaryListener.ORDER_PLACED_ID);
        resubmission.resubmit();
        await().atMost(WAIT).until(() -> incompletePublications() == 0);
    }

    @Test
    void theRegistrysStateChangesAreTheNativeStatementsOnTheSameRows() {
        assertThat(publications).isInstanceOf(NativeStatusEventPublications.class);
        UUID id = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        for (UUID publication : List.of(id, other)) {
            jdbc.update("INSERT INTO event_publication (id, listener_id, event_type, serialized_event, "
                    + "publication_date, status, completion_attempts) VALUES (?, 'test.listener', 'test.Event', "
                    + "'{}', now(), 'PUBLISHED', 0)", publication);
        }
        TransactionTemplate inTransaction = new TransactionTemplate(transactions);

        inTransaction.executeWithoutResult(status -> publications.markProcessing(id));
        assertThat(statusOf(id)).as("processing only tells the thread which publication it handles")
                .isEqualTo("PUBLISHED");
        inTransaction.executeWithoutResult(status -> publications.markFailed(id));
        assertThat(statusOf(id)).isEqualTo("FAILED");
        inTransaction.executeWithoutResult(status -> publications.markCompleted(id, Instant.now()));

        // completion-mode delete: the row is gone; the other publication was not touched
        assertThat(jdbc.queryForObject("SELECT count(*) FROM event_publication WHERE id = ?", Long.class, id))
                .isZero();
        assertThat(statusOf(other)).isEqualTo("PUBLISHED");
        jdbc.update("DELETE FROM event_publication WHERE id = ?", other);
    }

    @Test
    void aListenerCompletesItsPublicationWithItsOwnTransactionAndTheRegistrysCompletionThenWritesNothing() {
        NativeStatusEventPublications registry = (NativeStatusEventPublications) publications;
        TestEvent event = new TestEvent(UUID.randomUUID(), "completed by its listener");
        PublicationTargetIdentifier listener = PublicationTargetIdentifier.of(LISTENER);
        TransactionTemplate inTransaction = new TransactionTemplate(transactions);
        UUID id = storedInProgress(event);
        // this test's thread plays the listener thread: Modulith's calls, then the listener's transaction

        assertThat(registry.completeInCurrentTransaction(event, LISTENER)).as("nothing handed over on this thread")
                .isFalse();
        inTransaction.executeWithoutResult(status -> registry.markProcessing(id));
        inTransaction.executeWithoutResult(status -> assertThat(registry.completeInCurrentTransaction(event, LISTENER))
                .as("handed over without the registry saying to which event and listener").isFalse());
        eventPublicationRegistry.markProcessing(event, listener);
        inTransaction.executeWithoutResult(status -> {
            assertThat(registry.completeInCurrentTransaction(event, LISTENER)).isTrue();
            status.setRollbackOnly(); // the listener failed
        });
        assertThat(statusOf(id)).as("rolled back with the listener's effect").isEqualTo("PUBLISHED");
        inTransaction.executeWithoutResult(status -> registry.markFailed(id));
        assertThat(statusOf(id)).isEqualTo("FAILED");

        // A hand-over is never taken for another event's or another listener's publication.
        eventPublicationRegistry.markProcessing(event, listener);
        inTransaction.executeWithoutResult(status -> assertThat(registry.completeInCurrentTransaction(
                new TestEvent(UUID.randomUUID(), "another event"), LISTENER)).isFalse());
        eventPublicationRegistry.markProcessing(event, listener);
        inTransaction.executeWithoutResult(status -> assertThat(registry.completeInCurrentTransaction(
                event, "another.listener")).isFalse());
        assertThat(publicationsWithId(id)).isOne();

        eventPublicationRegistry.markProcessing(event, listener); // handed over again
        // an equal event (as a resubmission deserializes it) is the same event
        inTransaction.executeWithoutResult(status -> assertThat(registry.completeInCurrentTransaction(
                new TestEvent(event.id(), event.name()), LISTENER)).isTrue());
        assertThat(publicationsWithId(id)).as("deleted with the listener's commit").isZero();

        // The registry's completion after such a listener writes nothing: a row stored again under the id stays.
        storePublication(event, id);
        inTransaction.executeWithoutResult(status -> registry.markCompleted(id, Instant.now()));
        assertThat(publicationsWithId(id)).isOne();
        // Without a listener that completed it, the registry's completion deletes it, as before.
        inTransaction.executeWithoutResult(status -> registry.markCompleted(id, Instant.now()));
        assertThat(publicationsWithId(id)).isZero();
        eventPublicationRegistry.markCompleted(event, listener); // no longer in progress in the registry
    }

    @Test
    void aListenersTransactionThatCompletesItsPublicationCommitsWithoutWaitingForTheDiskAndNoOtherDoes() {
        NativeStatusEventPublications registry = (NativeStatusEventPublications) publications;
        TestEvent event = new TestEvent(UUID.randomUUID(), "completed by its listener, asynchronously");
        PublicationTargetIdentifier listener = PublicationTargetIdentifier.of(LISTENER);
        TransactionTemplate inTransaction = new TransactionTemplate(transactions);
        UUID id = storedInProgress(event);

        // a transaction whose listener completes nothing keeps the durable commit
        inTransaction.executeWithoutResult(status -> {
            assertThat(registry.completeInCurrentTransaction(event, LISTENER)).isFalse();
            assertThat(synchronousCommit()).isEqualTo("on");
        });
        eventPublicationRegistry.markProcessing(event, listener);
        inTransaction.executeWithoutResult(status -> {
            assertThat(synchronousCommit()).isEqualTo("on");
            assertThat(registry.completeInCurrentTransaction(event, LISTENER)).isTrue();
            // written behind: the DELETE goes with the summary's statement, as in the listener, one round trip
            assertThat(publicationsWithId(id)).as("not sent yet").isOne();
            summaryStore.addPlacedOnce(UUID.randomUUID(), new CustomerId(customer), Instant.now());
            assertThat(publicationsWithId(id)).isZero();
            assertThat(synchronousCommit()).as("this transaction's commit").isEqualTo("off");
        });
        assertThat(publicationsWithId(id)).isZero();
        inTransaction.executeWithoutResult(status -> assertThat(synchronousCommit())
                .as("the next transaction on the pool").isEqualTo("on"));
        eventPublicationRegistry.markCompleted(event, listener);

        // a publication gone before its listener's transaction (another instance completed it) completes nothing
        // there, and that transaction's commit stays durable: its effect has no publication left to redo it
        TestEvent completedElsewhere = new TestEvent(UUID.randomUUID(), "completed by another instance meanwhile");
        UUID gone = storedInProgress(completedElsewhere);
        eventPublicationRegistry.markProcessing(completedElsewhere, listener);
        jdbc.update("DELETE FROM event_publication WHERE id = ?", gone);
        inTransaction.executeWithoutResult(status -> {
            assertThat(registry.completeInCurrentTransaction(completedElsewhere, LISTENER)).isTrue();
            summaryStore.addPlacedOnce(UUID.randomUUID(), new CustomerId(customer), Instant.now());
            assertThat(synchronousCommit()).as("this transaction's commit").isEqualTo("on");
        });
        eventPublicationRegistry.markCompleted(completedElsewhere, listener);
    }

    /**
     * Stores a publication of {@code event} for {@link #LISTENER} as the order's transaction stores it, through the
     * registry, which then holds it in progress.
     */
    private UUID storedInProgress(TestEvent event) {
        return new TransactionTemplate(transactions).execute(status -> eventPublicationRegistry.store(event,
                Stream.of(PublicationTargetIdentifier.of(LISTENER)))).iterator().next().getIdentifier();
    }

    /** {@code synchronous_commit} as the current transaction (or a connection of the pool) sees it. */
    private String synchronousCommit() {
        return jdbc.queryForObject("SHOW synchronous_commit", String.class);
    }

    private static final String LISTENER = "test.completing-listener";

    private UUID storePublication(TestEvent event) {
        return storePublication(event, null);
    }

    /** Stores a publication of {@code event} for {@link #LISTENER}, as the order's transaction does, as {@code id}. */
    private UUID storePublication(TestEvent event, UUID id) {
        return storePublication(event, id, LISTENER);
    }

    private UUID storePublication(TestEvent event, UUID id, String listener) {
        TargetEventPublication publication = TargetEventPublication.of(event, PublicationTargetIdentifier.of(listener),
                Instant.now());
        new TransactionTemplate(transactions).executeWithoutResult(status -> publications.create(publication));
        if (id != null) {
            jdbc.update("UPDATE event_publication SET id = ? WHERE id = ?", id, publication.getIdentifier());
            return id;
        }
        return publication.getIdentifier();
    }

    private long publicationsWithId(UUID id) {
        return jdbc.queryForObject("SELECT count(*) FROM event_publication WHERE id = ?", Long.class, id);
    }

    @Test
    void aPublicationStoredByTheNativeInsertIsTheRowSpringModulithsRepositoryReadsBack() {
        TestEvent event = new TestEvent(UUID.randomUUID(), "native insert");
        Instant published = Instant.parse("2026-12-02T10:15:30.123456Z");
        TargetEventPublication stored = TargetEventPublication.of(event,
                PublicationTargetIdentifier.of("test.native-insert"), published);

        // written behind in the caller's transaction: sent (with the transaction's other inserts) before its commit
        long seenInTheTransaction = new TransactionTemplate(transactions).execute(status -> {
            publications.create(stored);
            return jdbc.queryForObject("SELECT count(*) FROM event_publication WHERE id = ?", Long.class,
                    stored.getIdentifier());
        });
        try {
            assertThat(seenInTheTransaction).as("not sent before the commit").isZero();
            assertThat(publicationsWithId(stored.getIdentifier())).as("committed").isOne();
            TargetEventPublication read = modulithPublications.findIncompletePublications().stream()
                    .filter(publication -> publication.getIdentifier().equals(stored.getIdentifier()))
                    .findFirst().orElseThrow();
            assertThat(read.getEvent()).isEqualTo(event);
            assertThat(read.getTargetIdentifier().getValue()).isEqualTo("test.native-insert");
            assertThat(read.getPublicationDate()).isEqualTo(published);
            assertThat(read.getStatus()).isEqualTo(stored.getStatus());
            assertThat(read.getCompletionAttempts()).isEqualTo(stored.getCompletionAttempts());
            assertThat(read.getLastResubmissionDate()).isEqualTo(stored.getLastResubmissionDate());
            assertThat(read.getCompletionDate()).isEmpty();
            assertThat(jdbc.queryForObject("SELECT event_type FROM event_publication WHERE id = ?", String.class,
                    stored.getIdentifier())).isEqualTo(TestEvent.class.getName());
        } finally {
            jdbc.update("DELETE FROM event_publication WHERE id = ?", stored.getIdentifier());
        }
    }

    /** An event the registry's serializer writes and reads back: a record of plain values. */
    record TestEvent(UUID id, String name) {
    }

    private String statusOf(UUID publication) {
        return jdbc.queryForObject("SELECT status FROM event_publication WHERE id = ?", String.class, publication);
    }

    /**
     * The next {@code times} listener transactions fail when they record an event id: a trigger raises until a
     * sequence, which no rollback resets, passes {@code times}.
     */
    private void failNextSummaryWrites(int times) {
        jdbc.execute("DROP SEQUENCE IF EXISTS summary_failures");
        jdbc.execute("CREATE SEQUENCE summary_failures MAXVALUE " + (times + 1_000_000));
        jdbc.execute("""
                CREATE OR REPLACE FUNCTION summary_fails() RETURNS trigger AS $$
                BEGIN
                  IF nextval('summary_failures') <= %d THEN
                    RAISE EXCEPTION 'test: the summary listener fails';
                  END IF;
                  RETURN NEW;
                END $$ LANGUAGE plpgsql""".formatted(times));
        jdbc.execute("CREATE TRIGGER summary_fails BEFORE INSERT ON customer_order_summary_event "
                + "FOR EACH ROW EXECUTE FUNCTION summary_fails()");
        this.failures = times;
    }

    private int failures;

    private long failuresLeft() {
        long used = jdbc.queryForObject("SELECT CASE WHEN is_called THEN last_value ELSE 0 END "
                + "FROM summary_failures", Long.class);
        return Math.max(0, failures - used);
    }

    private long incompletePublications() {
        return jdbc.queryForObject("SELECT count(*) FROM event_publication WHERE completion_date IS NULL",
                Long.class);
    }

    private long failedPublications() {
        return jdbc.queryForObject("SELECT count(*) FROM event_publication WHERE completion_date IS NULL "
                + "AND status = 'FAILED'", Long.class);
    }

    private long eventsCounted(UUID customer) {
        return jdbc.queryForObject("SELECT count(*) FROM customer_order_summary_event e JOIN outbox_message m "
                + "ON m.id = e.event_id JOIN orders o ON o.id::text = m.aggregate_id WHERE o.customer_id = ?",
                Long.class, customer);
    }

    /** The {@link OrderPlaced} of a placed order again, with its event id (the outbox row's id). */
    private OrderPlaced placedEvent(HttpJson.Response placed) {
        UUID orderId = UUID.fromString(placed.json().get("id").asString());
        UUID eventId = jdbc.queryForObject("SELECT id FROM outbox_message WHERE aggregate_id = ?", UUID.class,
                orderId.toString());
        return new OrderPlaced(eventId, Instant.parse(placed.json().get("placedAt").asString()), new OrderId(orderId),
                new CustomerId(customer), Money.of(placed.json().get("total").asString(), "EUR"), List.of());
    }
}
