package dev.bookstore.ordering.adapters.messaging.out;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory.ConfirmType;

/** What can be checked without a broker; everything else is in {@link RabbitMessagePublisherIT}. */
class RabbitMessagePublisherTest {

    @Test
    void refusesAConnectionFactoryWithoutCorrelatedConfirmsAndReturns() {
        CachingConnectionFactory simpleConfirms = factory(ConfirmType.SIMPLE, true);
        CachingConnectionFactory noReturns = factory(ConfirmType.CORRELATED, false);
        CachingConnectionFactory both = factory(ConfirmType.CORRELATED, true);

        assertThatThrownBy(() -> new RabbitMessagePublisher(simpleConfirms))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CORRELATED");
        assertThatThrownBy(() -> new RabbitMessagePublisher(noReturns))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("returns");
        assertThatCode(() -> new RabbitMessagePublisher(both)).doesNotThrowAnyException();
    }

    @Test
    void everyOutboxFieldBecomesItsAmqpProperty() {
        OutboxMessage outbox = TestOutboxMessages.orderPlaced("bookstore.ordering");

        Message message = RabbitMessagePublisher.toAmqp(outbox);

        MessageProperties properties = message.getMessageProperties();
        assertThat(properties.getMessageId()).isEqualTo(outbox.id().toString());
        assertThat(properties.getCorrelationId()).isEqualTo(outbox.aggregateId());
        assertThat(properties.getType()).isEqualTo("bookstore.order-placed.v1");
        assertThat(properties.getContentType()).isEqualTo("application/json");
        assertThat(properties.getContentEncoding()).isEqualTo("utf-8");
        assertThat(properties.getDeliveryMode()).isEqualTo(MessageDeliveryMode.PERSISTENT);
        assertThat(properties.getTimestamp()).isEqualTo(Date.from(outbox.occurredAt()));
        assertThat(properties.getAppId()).isEqualTo("ordering-service");
        assertThat(properties.getHeaders()).containsAllEntriesOf(outbox.headers()).containsKey("traceparent");
        assertThat(new String(message.getBody(), StandardCharsets.UTF_8)).isEqualTo(outbox.payload());
    }

    private static CachingConnectionFactory factory(ConfirmType confirms, boolean returns) {
        CachingConnectionFactory factory = new CachingConnectionFactory("127.0.0.1", 1);
        factory.setPublisherConfirmType(confirms);
        factory.setPublisherReturns(returns);
        return factory;
    }
}
