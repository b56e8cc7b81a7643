package dev.bookstore.ordering.bootstrap.tracing;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.MessagePublisher;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The relay's side of the trace. Each message gets a producer span whose parent is the context stored with its
 * outbox row (the request that wrote it), so the publish belongs to the request's trace however much later it
 * happens; the message leaves with that span's {@code traceparent}, so the consumer's span is its child. The span
 * ends with the broker's outcome for the message.
 */
public record TracingMessagePublisher(MessagePublisher delegate, Propagator propagator) implements MessagePublisher {

    static final String SPAN_NAME = "outbox publish";

    /** No span: a probe publishes nothing. */
    @Override
    public boolean brokerReachable() {
        return delegate.brokerReachable();
    }

    @Override
    public List<PublishResult> publish(List<OutboxMessage> batch, Duration confirmTimeout,
                                       BooleanSupplier stopSending) {
        List<Span> spans = new ArrayList<>(batch.size());
        List<OutboxMessage> traced = new ArrayList<>(batch.size());
        for (OutboxMessage message : batch) {
            Span span = propagator.extract(message.headers(), Map::get)
                    .name(SPAN_NAME)
                    .kind(Span.Kind.PRODUCER)
                    .remoteServiceName("rabbitmq")
                    .tag("messaging.system", "rabbitmq")
                    .tag("messaging.destination.name", message.exchange())
                    .tag("messaging.rabbitmq.destination.routing_key", message.routingKey())
                    .tag("messaging.message.id", message.id().toString())
                    .start();
            spans.add(span);
            traced.add(withContextOf(span, message));
        }
        List<PublishResult> results;
        try {
            results = delegate.publish(traced, confirmTimeout, stopSending);
        } catch (RuntimeException | Error e) {
            spans.forEach(span -> span.error(e).end());
            throw e;
        }
        for (int i = 0; i < spans.size(); i++) {
            Span span = spans.get(i);
            if (i < results.size()) {
                PublishResult result = results.get(i);
                span.tag("outbox.outcome", result.outcome().name());
                if (result.outcome() != PublishResult.Outcome.CONFIRMED && result.detail() != null) {
                    span.event(result.detail());
                }
            }
            span.end();
        }
        return results;
    }

    private OutboxMessage withContextOf(Span span, OutboxMessage message) {
        Map<String, String> headers = new HashMap<>(message.headers());
        propagator.inject(span.context(), headers, Map::put);
        return new OutboxMessage(message.id(), message.aggregateType(), message.aggregateId(), message.type(),
                message.exchange(), message.routingKey(), message.payload(), Map.copyOf(headers),
                message.occurredAt(), message.attempts(), message.position());
    }
}
