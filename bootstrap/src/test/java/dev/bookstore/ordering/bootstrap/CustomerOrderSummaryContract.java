package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.modulith.CustomerOrderSummaryListener;
import dev.bookstore.ordering.adapters.modulith.FailedPublicationsResubmission;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.application.ordering.OrderDetails;
import dev.bookstore.ordering.application.ordering.PlaceOrderCommand;
import dev.bookstore.ordering.application.ordering.PlaceOrderUseCase;
import dev.bookstore.ordering.application.summary.CustomerOrderSummary;
import dev.bookstore.ordering.application.summary.GetCustomerOrderSummaryQuery;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.modulith.events.core.PublicationTargetIdentifier;
import org.springframework.modulith.events.core.TargetEventPublication;
import org.springframework.modulith.test.EnableScenarios;
import org.springframework.modulith.test.Scenario;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The customer order summary on each engine (PostgreSQL, MariaDB), one subclass per engine with a database of its
 * own: the in-process {@code @ApplicationModuleListener} counts the order events after each order's commit, the count
 * shows through {@code /customers/.../order-summary}, a listener that fails leaves its publication in Spring
 * Modulith's registry and a resubmission counts the event once. The relay is off: the summary does not depend on the
 * broker. The triggers that log or fail the listener's writes are written in each engine's language (its subclass).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@EnableScenarios
@Import(CustomerOrderSummaryContract.ListenerThreadTransactions.class)
abstract class CustomerOrderSummaryContract {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The engine of the subclass's database. */
    protected abstract TestEngine engine();

    /**
     * Creates (or empties) the table {@code test_write_log (n, what, tx)} and triggers that note in it, in the order
     * they happen, every insert into {@code customer_order_summary_event} and every update or delete of the
     * registry's publications: {@code what} is the table's name (the registry's as {@link #publicationTable()} gives
     * it), a space and the operation (INSERT, UPDATE, DELETE); {@code tx} is the id of the transaction that wrote.
     */
    protected abstract void installWriteLog();

    /**
     * Makes the next {@code times} listener transactions fail when they record an event id: a trigger raises until a
     * sequence, which no rollback resets, passes {@code times}.
     */
    protected abstract void installSummaryFailures(int times);

    /** How many times the trigger of {@link #installSummaryFailures} was asked so far. */
    protected abstract long summaryFailuresAsked();

    /** Drops the triggers the tests made, if they are there. */
    protected abstract void dropTestTriggers();

    /** The service's properties on {@code database}, for a subclass's {@code @DynamicPropertySource}. */
    static void register(DynamicPropertyRegistry registry, TestDatabase database) {
        WritePathService.register(registry, database);
        // The tests resubmit themselves (through the scheduled job's method).
        registry.add("ordering.modulith.resubmit-interval", () -> "1h");
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
    FailedPublicationsResubmission resubmission;

    @Autowired
    EventPublicationRepository publications;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    ListenerThreadTransactions listenerThreadTransactions;

    HttpJson http;
    UUID customer;

    /**
     * Notes every transaction begun on a thread of the in-process listener's executor, by name. A bean by the class's
     * {@code @Import} (no nested configuration for subclasses to inherit).
     */
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
        dropTestTriggers();
    }

    /** AutoCommitCompletionRegistry: the effect commits, then the publication is deleted; "processing" writes nothing. */
    @Test
    void theListenersEffectCommitsBeforeItsPublicationIsDeletedAndProcessingWritesNothing() {
        // Triggers note every write of the listener's path with the transaction that made it.
        installWriteLog();

        assertThat(http.postJson("/orders", HttpJson.orderJson(customer.toString(), 1)).status()).isEqualTo(201);
        await().atMost(WAIT).until(() -> incompletePublications() == 0
                && summaries.summaryOf(new CustomerId(customer)).ordersPlaced() == 1);

        List<Map<String, Object>> writes = jdbc.queryForList("SELECT what, tx FROM test_write_log ORDER BY n");
        assertThat(writes).extracting(row -> row.get("what"))
                .containsExactly("customer_order_summary_event INSERT", publicationTable() + " DELETE");
        assertThat(writes.get(1).get("tx")).as("the completion after the listener's commit")
                .isNotEqualTo(writes.get(0).get("tx"));
    }

    /**
     * AutoCommitCompletionRegistry: "processing" and "completed" open no transaction of their own; the listener
     * method runs outside one (it waits for a connection, ListenerConnectionWait), so the one is the use case's.
     */
    @Test
    void anEventCostsTheListenerThreadOneTransactionTheUseCasesOwn() {
        await().atMost(WAIT).until(() -> incompletePublications() == 0);
        listenerThreadTransactions.begun.clear();

        assertThat(http.postJson("/orders", HttpJson.orderJson(customer.toString(), 1)).status()).isEqualTo(201);
        await().atMost(WAIT).until(() -> incompletePublications() == 0
                && summaries.summaryOf(new CustomerId(customer)).ordersPlaced() == 1);

        assertThat(listenerThreadTransactions.begun).singleElement().asString()
                .startsWith("SummarizeOrderEventsUseCase ")
                .contains("DataSourceTransactionManager");
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
        assertThat(jdbc.queryForList("SELECT listener_id FROM " + publicationTable() + " WHERE completion_date IS NULL",
                String.class)).containsExactly(CustomerOrderSummaryListener.ORDER_PLACED_ID);
        resubmission.resubmit();
        await().atMost(WAIT).until(() -> incompletePublications() == 0);
    }

    /**
     * The registry is Spring Modulith's JDBC repository on the table Flyway creates: a publication stored in a
     * transaction is read back with its event, listener, dates and status.
     */
    @Test
    void aPublicationStoredInATransactionIsReadBackBySpringModulithsRepository() {
        TestEvent event = new TestEvent(UUID.randomUUID(), "stored and read back");
        Instant published = Instant.parse("2026-12-02T10:15:30.123456Z");
        TargetEventPublication stored = TargetEventPublication.of(event,
                PublicationTargetIdentifier.of("test.read-back"), published);

        new TransactionTemplate(transactions).executeWithoutResult(status -> publications.create(stored));
        try {
            TargetEventPublication read = publications.findIncompletePublications().stream()
                    .filter(publication -> publication.getIdentifier().equals(stored.getIdentifier()))
                    .findFirst().orElseThrow();
            assertThat(read.getEvent()).isEqualTo(event);
            assertThat(read.getTargetIdentifier().getValue()).isEqualTo("test.read-back");
            assertThat(read.getPublicationDate()).isEqualTo(published);
            assertThat(read.getStatus()).isEqualTo(stored.getStatus());
            assertThat(read.getCompletionDate()).isEmpty();
            assertThat(jdbc.queryForObject("SELECT event_type FROM " + publicationTable() + " WHERE id = ?",
                    String.class, id(stored.getIdentifier()))).isEqualTo(TestEvent.class.getName());
        } finally {
            jdbc.update("DELETE FROM " + publicationTable() + " WHERE id = ?", id(stored.getIdentifier()));
        }
    }

    /** An event the registry's serializer writes and reads back: a record of plain values. */
    record TestEvent(UUID id, String name) {
    }

    private void failNextSummaryWrites(int times) {
        installSummaryFailures(times);
        this.failures = times;
    }

    private int failures;

    private long failuresLeft() {
        return Math.max(0, failures - summaryFailuresAsked());
    }

    private long incompletePublications() {
        return jdbc.queryForObject("SELECT count(*) FROM " + publicationTable() + " WHERE completion_date IS NULL",
                Long.class);
    }

    private long failedPublications() {
        return jdbc.queryForObject("SELECT count(*) FROM " + publicationTable() + " WHERE completion_date IS NULL "
                + "AND status = 'FAILED'", Long.class);
    }

    private long eventsCounted(UUID customer) {
        return jdbc.queryForObject("SELECT count(*) FROM customer_order_summary_event e JOIN outbox_message m "
                + "ON m.id = e.event_id JOIN orders o ON CAST(o.id AS varchar(36)) = m.aggregate_id "
                + "WHERE o.customer_id = ?", Long.class, id(customer));
    }

    /** The {@link OrderPlaced} of a placed order again, with its event id (the outbox row's id). */
    private OrderPlaced placedEvent(HttpJson.Response placed) {
        UUID orderId = UUID.fromString(placed.json().get("id").asString());
        UUID eventId = jdbc.queryForObject("SELECT id FROM outbox_message WHERE aggregate_id = ?",
                (rs, row) -> UUID.fromString(rs.getString(1)), orderId.toString());
        return new OrderPlaced(eventId, Instant.parse(placed.json().get("placedAt").asString()), new OrderId(orderId),
                new CustomerId(customer), Money.of(placed.json().get("total").asString(), "EUR"), List.of());
    }

    /** The registry's table as this engine names it. */
    String publicationTable() {
        return EventPublications.table(engine());
    }

    /** An id as a statement parameter on this engine. */
    private Object id(UUID id) {
        return engine().database().id(id);
    }
}
