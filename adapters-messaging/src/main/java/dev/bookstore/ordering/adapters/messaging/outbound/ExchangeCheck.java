package dev.bookstore.ordering.adapters.messaging.outbound;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * Which exchanges exist. RabbitMQ answers a publish to a missing exchange by closing the whole channel (404),
 * which would take every other unconfirmed message of the batch with it; so the first time an exchange is seen it
 * is checked with a passive declare on a channel of its own (a failed declare closes that channel, not the
 * batch's), and the ones that exist are remembered until {@link #forget()}.
 */
final class ExchangeCheck {

    private static final Logger LOG = LoggerFactory.getLogger(ExchangeCheck.class);

    /** The outcome of a check: exchanges found missing, with the reason; or the broker could not be asked. */
    record Checked(Map<String, String> missing, String unreachable) {
    }

    private final RabbitTemplate template;
    /** Exchanges a passive declare found; forgotten whenever the broker closes a channel over a missing one. */
    private final Set<String> known = ConcurrentHashMap.newKeySet();
    /** Missing exchanges already logged, so that an operator sees one warning, not one per batch. */
    private final Set<String> reportedMissing = ConcurrentHashMap.newKeySet();

    ExchangeCheck(RabbitTemplate template) {
        this.template = template;
    }

    /** Checks every exchange of these messages not known yet ({@code ""}, the default exchange, always exists). */
    Checked check(List<OutboxMessage> batch, List<Integer> indices) {
        Set<String> unknown = new LinkedHashSet<>();
        for (int i : indices) {
            String exchange = batch.get(i).exchange();
            if (!exchange.isEmpty() && !known.contains(exchange)) {
                unknown.add(exchange);
            }
        }
        Map<String, String> missing = new LinkedHashMap<>();
        for (String exchange : unknown) {
            try {
                template.execute(channel -> channel.exchangeDeclarePassive(exchange));
                known.add(exchange);
                reportedMissing.remove(exchange);
            } catch (AmqpException e) {
                var close = AmqpFailures.channelClose(e);
                if (close == null || AmqpFailures.replyCode(close) != ChannelClosure.NOT_FOUND) {
                    return new Checked(Map.of(), AmqpFailures.describe(e));
                }
                if (reportedMissing.add(exchange)) { // once, not on every relay round
                    LOG.warn("Exchange '{}' does not exist; its messages are not published", exchange);
                }
                missing.put(exchange, "exchange '" + exchange + "' does not exist (404 NOT_FOUND), not published");
            }
        }
        return new Checked(missing, null);
    }

    /** An exchange vanished after it was checked: check them all again. */
    void forget() {
        known.clear();
    }
}
