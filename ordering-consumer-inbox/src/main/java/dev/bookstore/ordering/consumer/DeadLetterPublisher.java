package dev.bookstore.ordering.consumer;

import java.time.Duration;
import java.util.Map;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * Puts a message the inbox listener gives up on into the recipe's dead-letter queue, through its dead-letter
 * exchange: the same body and properties, persistent, with the reason and the delivery count added as headers, and
 * where it came from ({@code x-original-exchange}, {@code x-original-routing-key}). On a connection factory with
 * publisher confirms it waits for the broker's confirm; a failure throws, and the message is then not acked.
 */
final class DeadLetterPublisher {

    static final String ORIGINAL_EXCHANGE_HEADER = "x-original-exchange";
    static final String ORIGINAL_ROUTING_KEY_HEADER = "x-original-routing-key";
    static final String CONSUMER_HEADER = "x-inbox-consumer";
    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);

    private final RabbitTemplate template;
    private final boolean confirms;
    private final InboxQueue queue;

    DeadLetterPublisher(ConnectionFactory connectionFactory, InboxQueue queue) {
        this.template = new RabbitTemplate(connectionFactory);
        this.confirms = connectionFactory.isSimplePublisherConfirms();
        this.queue = queue;
    }

    void send(Message message, String reason, int deliveries, String consumer) {
        MessageProperties properties = message.getMessageProperties();
        Map<String, Object> headers = properties.getHeaders();
        headers.put(OrderPlacedInboxListener.REASON_HEADER, reason);
        headers.put(OrderPlacedInboxListener.DELIVERIES_HEADER, deliveries);
        headers.put(CONSUMER_HEADER, consumer);
        if (properties.getReceivedExchange() != null) {
            headers.put(ORIGINAL_EXCHANGE_HEADER, properties.getReceivedExchange());
        }
        if (properties.getReceivedRoutingKey() != null) {
            headers.put(ORIGINAL_ROUTING_KEY_HEADER, properties.getReceivedRoutingKey());
        }
        properties.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
        template.invoke(operations -> {
            operations.send(queue.deadLetterExchangeName(), queue.deadLetterQueueName(), message);
            if (confirms) {
                operations.waitForConfirmsOrDie(CONFIRM_TIMEOUT.toMillis());
            }
            return null;
        });
    }
}
