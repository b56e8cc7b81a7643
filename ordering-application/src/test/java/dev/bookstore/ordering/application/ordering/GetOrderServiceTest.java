package dev.bookstore.ordering.application.ordering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bookstore.ordering.application.ordering.PlaceOrderCommand.Item;
import dev.bookstore.ordering.application.testing.InMemoryIdempotencyKeys;
import dev.bookstore.ordering.application.testing.InMemoryOrderRepository;
import dev.bookstore.ordering.application.testing.MutableClock;
import dev.bookstore.ordering.application.testing.RecordingDomainEventPublisher;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.shared.Money;
import dev.bookstore.ordering.domain.shared.UuidV7;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GetOrderServiceTest {

    private final MutableClock clock = MutableClock.at("2025-03-14T09:00:00Z");
    private final InMemoryOrderRepository orders = new InMemoryOrderRepository();
    private final PlaceOrderUseCase placeOrder =
            new PlaceOrderService(orders, new RecordingDomainEventPublisher().outbox(),
                    new InMemoryIdempotencyKeys(clock), clock);
    private final GetOrderQuery query = new GetOrderService(orders);

    @Test
    void findsAPlacedOrderById() {
        OrderDetails placed = place("12.50");

        assertThat(query.findOrder(new OrderId(placed.id()))).hasValueSatisfying(found -> {
            assertThat(found.id()).isEqualTo(placed.id());
            assertThat(found.total()).isEqualTo(Money.of("12.50", "EUR"));
        });
    }

    @Test
    void findsNothingForAnUnknownId() {
        place("12.50");

        assertThat(query.findOrder(new OrderId(UuidV7.at(clock.instant())))).isEmpty();
    }

    @Test
    void recentOrdersAreNewestFirstAndLimited() {
        List<UUID> placedInOrder = placeOneEverySecond(5);

        List<OrderDetails> recent = query.recentOrders(3);

        assertThat(recent).extracting(OrderDetails::id)
                .containsExactly(placedInOrder.get(4), placedInOrder.get(3), placedInOrder.get(2));
    }

    @Test
    void oneHundredRecentOrdersCanBeAskedFor() {
        placeOneEverySecond(101);

        assertThat(query.recentOrders(GetOrderQuery.MAX_RECENT_ORDERS)).hasSize(100);
        assertThat(query.recentOrders(1)).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -5, 101, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void aLimitOutsideOneToOneHundredIsRejectedNotClamped(int limit) {
        placeOneEverySecond(2);

        assertThatIllegalArgumentException().isThrownBy(() -> query.recentOrders(limit))
                .withMessage("limit must be between 1 and 100, got " + limit);
    }

    @Test
    void recentOrdersOfACustomerAreOnlyTheirs() {
        UUID alice = UUID.randomUUID();
        OrderDetails first = place(alice, "1.00");
        clock.advance(Duration.ofSeconds(1));
        place(UUID.randomUUID(), "2.00");
        clock.advance(Duration.ofSeconds(1));
        OrderDetails second = place(alice, "3.00");

        assertThat(query.recentOrdersOf(new CustomerId(alice), 10)).extracting(OrderDetails::id)
                .containsExactly(second.id(), first.id());
        assertThatThrownBy(() -> query.recentOrdersOf(new CustomerId(alice), 500))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void noOrdersNoRecentOrders() {
        assertThat(query.recentOrders(10)).isEmpty();
    }

    private List<UUID> placeOneEverySecond(int count) {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(place("1.00").id());
            clock.advance(Duration.ofSeconds(1));
        }
        return ids;
    }

    private OrderDetails place(String price) {
        return place(UUID.randomUUID(), price);
    }

    private OrderDetails place(UUID customer, String price) {
        return placeOrder.placeOrder(PlaceOrderCommand.of(customer, "EUR",
                List.of(new Item("b-1", 1, new BigDecimal(price)))));
    }
}
