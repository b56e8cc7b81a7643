package dev.bookstore.ordering.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bookstore.ordering.consumer.InboxQueue.DeadLettering;
import java.time.Duration;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.Exchange;
import org.springframework.amqp.core.Queue;

class InboxQueueTest {

    @Test
    void onRabbitMqTheQueueIsAQuorumQueueWithADeliveryLimitAndADeadLetterExchange() {
        Queue queue = new InboxQueue("shipping.orders", DeadLettering.BROKER, 5, Duration.ofSeconds(1)).queue();

        assertThat(queue.isDurable()).isTrue();
        assertThat(queue.getArguments())
                .containsEntry("x-queue-type", "quorum")
                .containsEntry("x-delivery-limit", 5)
                .containsEntry("x-dead-letter-exchange", "shipping.orders.dlx")
                .containsEntry("x-dead-letter-routing-key", "shipping.orders.dlq");
    }

    @Test
    void whereTheListenerDeadLettersTheQueuesCarryNoArguments() {
        InboxQueue recipe = new InboxQueue("shipping.orders", DeadLettering.LISTENER, 5, Duration.ofSeconds(1));

        assertThat(recipe.queue().getArguments()).isEmpty();
        assertThat(recipe.deadLetterQueue().getArguments()).isEmpty();
    }

    @Test
    void theDeclarablesBindTheQueueToEveryOrderEventAndTheDeadLetterQueueToItsExchange() {
        InboxQueue recipe = new InboxQueue("shipping.orders", DeadLettering.BROKER, 5, Duration.ofSeconds(1));

        var declarables = recipe.declarables(InboxQueue.ORDER_EVENTS_EXCHANGE);

        assertThat(declarables.getDeclarablesByType(Exchange.class)).extracting(Exchange::getName, Exchange::getType)
                .containsExactlyInAnyOrder(Tuple.tuple("bookstore.ordering", "topic"),
                        Tuple.tuple("shipping.orders.dlx", "direct"));
        assertThat(declarables.getDeclarablesByType(Queue.class)).extracting(Queue::getName)
                .containsExactlyInAnyOrder("shipping.orders", "shipping.orders.dlq");
        assertThat(declarables.getDeclarablesByType(Binding.class))
                .extracting(Binding::getExchange, Binding::getDestination, Binding::getRoutingKey)
                .containsExactlyInAnyOrder(
                        Tuple.tuple("bookstore.ordering", "shipping.orders", "order.#"),
                        Tuple.tuple("shipping.orders.dlx", "shipping.orders.dlq",
                                "shipping.orders.dlq"));
    }

    @Test
    void theWaitBeforeARedeliveryDoublesPerFailureUpToItsMaximum() {
        InboxQueue recipe = new InboxQueue("q", DeadLettering.LISTENER, 50, Duration.ofMillis(100));

        assertThat(recipe.retryDelayAfter(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(recipe.retryDelayAfter(2)).isEqualTo(Duration.ofMillis(200));
        assertThat(recipe.retryDelayAfter(4)).isEqualTo(Duration.ofMillis(800));
        assertThat(recipe.retryDelayAfter(40)).isEqualTo(InboxQueue.MAX_RETRY_DELAY);
    }

    @Test
    void aRecipeWithoutAnyDeliveryIsRefused() {
        assertThatThrownBy(() -> new InboxQueue("q", DeadLettering.BROKER, 0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxDeliveries");
    }
}
