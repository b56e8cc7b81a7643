package dev.bookstore.ordering.application.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderStatus;
import dev.bookstore.ordering.domain.shared.Money;
import java.time.Instant;
import java.util.Currency;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class InMemoryOrderRepositoryTest {

    private static final Instant NOW = Instant.parse("2025-03-14T09:00:00Z");

    private final InMemoryOrderRepository orders = new InMemoryOrderRepository();

    @Test
    void readsGiveBackTheSavedStateWithoutItsRecordedEvents() {
        Order placed = place(NOW);
        orders.add(placed);

        Order loaded = orders.findById(placed.id()).orElseThrow();

        assertThat(loaded).isNotSameAs(placed);
        assertThat(loaded.total()).isEqualTo(placed.total());
        assertThat(loaded.status()).isEqualTo(OrderStatus.PLACED);
        assertThat(loaded.pullRecordedEvents()).isEmpty();
    }

    @Test
    void aChangeThatWasNotSavedIsNotSeen() {
        Order placed = place(NOW);
        orders.add(placed);

        orders.findById(placed.id()).orElseThrow().cancel("not saved", NOW);

        assertThat(orders.findById(placed.id()).orElseThrow().status()).isEqualTo(OrderStatus.PLACED);
    }

    @Test
    void addIsForNewOrdersAndUpdateForStoredOnes() {
        Order placed = place(NOW);

        assertThatThrownBy(() -> orders.update(placed)).isInstanceOf(IllegalStateException.class);
        orders.add(placed);
        assertThatThrownBy(() -> orders.add(placed)).isInstanceOf(IllegalStateException.class);

        Order loaded = orders.findById(placed.id()).orElseThrow();
        loaded.cancel("changed my mind", NOW);
        orders.update(loaded);
        assertThat(orders.findById(placed.id()).orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void recentOrdersAreNewestFirst() {
        Order older = place(NOW);
        Order newer = place(NOW.plusSeconds(1));
        orders.add(newer);
        orders.add(older);

        assertThat(orders.findRecent(10)).extracting(Order::id).containsExactly(newer.id(), older.id());
        assertThat(orders.findRecent(1)).extracting(Order::id).containsExactly(newer.id());
    }

    @Test
    void recentOrdersOfACustomerAreOnlyTheirsNewestFirst() {
        CustomerId alice = new CustomerId(UUID.randomUUID());
        Order older = place(alice, NOW);
        Order someoneElses = place(NOW.plusSeconds(1));
        Order newer = place(alice, NOW.plusSeconds(2));
        orders.add(older);
        orders.add(someoneElses);
        orders.add(newer);

        assertThat(orders.findRecentOf(alice, 10)).extracting(Order::id).containsExactly(newer.id(), older.id());
        assertThat(orders.findRecentOf(alice, 1)).extracting(Order::id).containsExactly(newer.id());
    }

    private static Order place(Instant at) {
        return place(new CustomerId(UUID.randomUUID()), at);
    }

    private static Order place(CustomerId customer, Instant at) {
        return Order.place(customer, Currency.getInstance("EUR"),
                List.of(new OrderLine(new BookId("b-1"), 1, Money.of("9.99", "EUR"))), at);
    }
}
