package dev.bookstore.ordering.adapters.messaging.outbound;

import com.rabbitmq.client.AMQP;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.util.Date;
import java.util.HashMap;

/**
 * The AMQP properties of an outbox message: {@code message_id} = outbox id (the same on every retry),
 * {@code correlation_id} = aggregate id, {@code type}, {@code content_type} JSON, {@code content_encoding} UTF-8,
 * persistent delivery, {@code timestamp} = occurred-at (AMQP timestamps have whole seconds), {@code app_id} and the
 * row's headers, nothing else.
 */
final class AmqpProperties {

    static final String APP_ID = "ordering-service";
    static final String CONTENT_TYPE = "application/json";
    static final String CONTENT_ENCODING = "utf-8";
    /** AMQP delivery mode 2: the broker writes the message to disk. */
    private static final int PERSISTENT = 2;

    private AmqpProperties() {
    }

    static AMQP.BasicProperties of(OutboxMessage message) {
        return new AMQP.BasicProperties.Builder()
                .messageId(message.id().toString())
                .correlationId(message.aggregateId())
                .type(message.type())
                .contentType(CONTENT_TYPE)
                .contentEncoding(CONTENT_ENCODING)
                .deliveryMode(PERSISTENT)
                .timestamp(Date.from(message.occurredAt()))
                .appId(APP_ID)
                .headers(new HashMap<String, Object>(message.headers()))
                .build();
    }
}
