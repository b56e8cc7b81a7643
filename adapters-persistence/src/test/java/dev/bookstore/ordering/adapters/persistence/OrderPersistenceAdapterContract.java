package dev.bookstore.ordering.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderStatus;
import dev.bookstore.ordering.domain.shared.Money;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Currency;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The {@link OrderPersistenceAdapter} contract, run against every engine by one subclass per engine: an order reads
 * back as placed, the newest orders come first, and a change of status is optimistic: it holds only while the row
 * still has the version this transaction read. A subclass provides a migrated database shared by its tests; each
 * test places orders of its own.
 */
abstract class OrderPersistenceAdapterContract {

    private static final Currency EUR = Currency.getInstance("EUR");
    private static final Instant PLACED_AT = Instant.parse("2026-12-04T10:15:30.123456Z");

    private OrderPersistenceAdapter orders;
    private TransactionTemplate transaction;
    private TransactionTemplate newTransaction;
    private JdbcTemplate jdbc;

    /** A data source on a database migrated by this engine's Flyway scripts. */
    protected abstract DataSource dataSource();

    /** The engine of {@link #dataSource()}, which binds the ids the test's own queries use. */
    protected abstract Database expectedDatabase();

    @BeforeEach
    void createAdapter() {
        orders = new OrderPersistenceAdapter(dataSource());
        DataSourceTransactionManager manager = new DataSourceTransactionManager(dataSource());
        transaction = new TransactionTemplate(manager);
        newTransaction = new TransactionTemplate(manager);
        newTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        jdbc = new JdbcTemplate(dataSource());
    }

    @Test
    void theDataSourceIsTheEngineTheSubclassNames() {
        assertThat(Database.of(dataSource())).isEqualTo(expectedDatabase());
    }

    @Test
    void anOrderAddedReadsBackWithItsLinesInOrder() {
        Order placed = newOrder();
        transaction.executeWithoutResult(status -> orders.add(placed));

        Order read = transaction.execute(status -> orders.findById(placed.id())).orElseThrow();

        assertThat(read.id()).isEqualTo(placed.id());
        assertThat(read.customerId()).isEqualTo(placed.customerId());
        assertThat(read.currency()).isEqualTo(EUR);
        assertThat(read.status()).isEqualTo(OrderStatus.PLACED);
        assertThat(read.placedAt()).isEqualTo(PLACED_AT);
        assertThat(read.lines()).isEqualTo(placed.lines());
        assertThat(read.total()).isEqualTo(placed.total());
        assertThat(orders.findById(OrderId.newId(PLACED_AT))).as("an order never stored").isEmpty();
    }

    @Test
    void aStatusChangedInTheTransactionThatReadTheOrderIsStoredWithTheNextVersion() {
        Order placed = newOrder();
        transaction.executeWithoutResult(status -> orders.add(placed));

        transaction.executeWithoutResult(status -> {
            Order order = orders.findById(placed.id()).orElseThrow();
            order.cancel("changed my mind", PLACED_AT.plusSeconds(5));
            orders.update(order);
        });

        assertThat(orders.findById(placed.id()).orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(version(placed.id())).isEqualTo(1);
        assertThat(TransactionSynchronizationManager.getResourceMap()).as("nothing left bound to the thread")
                .isEmpty();
    }

    @Test
    void aChangeByAnotherTransactionSinceTheReadFailsTheUpdateAndKeepsTheOtherChange() {
        Order placed = newOrder();
        transaction.executeWithoutResult(status -> orders.add(placed));

        assertThatThrownBy(() -> transaction.executeWithoutResult(status -> {
            Order order = orders.findById(placed.id()).orElseThrow();
            // Another transaction reads the same version and cancels first; this one is suspended meanwhile.
            newTransaction.executeWithoutResult(other -> {
                Order same = orders.findById(placed.id()).orElseThrow();
                same.cancel("the other one", PLACED_AT.plusSeconds(1));
                orders.update(same);
            });
            order.cancel("this one", PLACED_AT.plusSeconds(2));
            orders.update(order);
        })).isInstanceOf(OptimisticLockingFailureException.class)
                .hasMessageContaining(placed.id().toString()).hasMessageContaining("version 0");

        assertThat(version(placed.id())).as("changed once").isEqualTo(1);
        assertThat(orders.findById(placed.id()).orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void anUpdateOfAnOrderThisTransactionDidNotReadIsRefused() {
        Order placed = newOrder();
        transaction.executeWithoutResult(status -> orders.add(placed));
        transaction.executeWithoutResult(status -> orders.findById(placed.id()));

        // Read in a transaction before, not in this one: the version that transaction saw is gone with it.
        assertThatThrownBy(() -> transaction.executeWithoutResult(status -> {
            Order order = Order.reconstitute(placed.id(), placed.customerId(), EUR, placed.lines(),
                    OrderStatus.PLACED, PLACED_AT);
            order.cancel("blind", PLACED_AT.plusSeconds(1));
            orders.update(order);
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("was not read in this transaction");

        assertThat(version(placed.id())).isZero();
    }

    @Test
    void theNewestOrdersComeFirstWithTheirLinesAndACustomersOnlyTheirOwn() {
        // Later than the orders of the other tests, so these are the newest in the shared database.
        Instant later = Instant.parse("2030-01-01T00:00:00.000001Z");
        CustomerId customer = new CustomerId(UUID.randomUUID());
        Order oldest = newOrder(customer, later);
        Order ofAnother = newOrder(new CustomerId(UUID.randomUUID()), later.plusSeconds(1));
        Order newest = newOrder(customer, later.plusSeconds(2));
        transaction.executeWithoutResult(status -> {
            orders.add(oldest);
            orders.add(ofAnother);
            orders.add(newest);
        });

        List<Order> recent = orders.findRecent(2);

        assertThat(recent).extracting(Order::id).containsExactly(newest.id(), ofAnother.id());
        assertThat(recent.get(0).lines()).isEqualTo(newest.lines());
        assertThat(recent.get(0).placedAt()).isEqualTo(later.plusSeconds(2));
        assertThat(orders.findRecentOf(customer, 10)).extracting(Order::id)
                .containsExactly(newest.id(), oldest.id());
        assertThat(orders.findRecentOf(customer, 1)).extracting(Order::id).containsExactly(newest.id());
        assertThat(orders.findRecentOf(new CustomerId(UUID.randomUUID()), 10)).as("a customer without orders")
                .isEmpty();
    }

    private long version(OrderId id) {
        return jdbc.queryForObject("SELECT version FROM orders WHERE id = ?", Long.class,
                expectedDatabase().id(id.value()));
    }

    private static Order newOrder() {
        return newOrder(new CustomerId(UUID.randomUUID()), PLACED_AT);
    }

    private static Order newOrder(CustomerId customer, Instant placedAt) {
        return Order.place(customer, EUR, List.of(
                new OrderLine(new BookId("978-0134494166"), 2, new Money(new BigDecimal("39.90"), EUR)),
                new OrderLine(new BookId("978-0321125217"), 1, new Money(new BigDecimal("54.99"), EUR)),
                new OrderLine(new BookId("978-1617294945"), 3, new Money(new BigDecimal("12.00"), EUR))),
                placedAt);
    }
}
