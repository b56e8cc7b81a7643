package dev.bookstore.ordering.adapters.messaging.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.AMQP;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.util.Date;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory.ConfirmType;

/** What can be checked without a broker; everything else is in {@link RabbitMessagePublisherIT}. */
class RabbitMessagePublisherTest {

    @Test
    void needsPlainConfirmChannelsSimpleConfirmsWithoutSpringReturns() {
        CachingConnectionFactory correlated = factory(ConfirmType.CORRELATED, false);
        CachingConnectionFactory noConfirms = factory(ConfirmType.NONE, false);
        CachingConnectionFactory springReturns = factory(ConfirmType.SIMPLE, true);
        CachingConnectionFactory plain = factory(ConfirmType.SIMPLE, false);

        assertThatThrownBy(() -> new RabbitMessagePublisher(correlated))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SIMPLE");
        assertThatThrownBy(() -> new RabbitMessagePublisher(noConfirms))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SIMPLE");
        assertThatThrownBy(() -> new RabbitMessagePublisher(springReturns))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("returns disabled");
        assertThatCode(() -> new RabbitMessagePublisher(plain)).doesNotThrowAnyException();
    }

    @Test
    void everyOutboxFieldBecomesItsAmqpProperty() {
        OutboxMessage outbox = TestOutboxMessages.orderPlaced("bookstore.ordering");

        AMQP.BasicProperties properties = RabbitMessagePublisher.properties(outbox);

        assertThat(properties.getMessageId()).isEqualTo(outbox.id().toString());
        assertThat(properties.getCorrelationId()).isEqualTo(outbox.aggregateId());
        assertThat(properties.getType()).isEqualTo("bookstore.order-placed.v1");
        assertThat(properties.getContentType()).isEqualTo("application/json");
        assertThat(properties.getContentEncoding()).isEqualTo("utf-8");
        assertThat(properties.getDeliveryMode()).isEqualTo(2); // persistent
        assertThat(properties.getTimestamp()).isEqualTo(Date.from(outbox.occurredAt()));
        assertThat(properties.getAppId()).isEqualTo("ordering-service");
        assertThat(properties.getHeaders()).containsAllEntriesOf(outbox.headers()).containsKey("traceparent")
                .hasSize(outbox.headers().size());
    }

    private static CachingConnectionFactory factory(ConfirmType confirms, boolean returns) {
        CachingConnectionFactory factory = new CachingConnectionFactory("127.0.0.1", 1);
        factory.setPublisherConfirmType(confirms);
        factory.setPublisherReturns(returns);
        return factory;
    }
}
