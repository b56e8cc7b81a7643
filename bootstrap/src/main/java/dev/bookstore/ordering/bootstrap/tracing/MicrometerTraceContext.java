package dev.bookstore.ordering.bootstrap.tracing;

import dev.bookstore.ordering.application.outbox.TraceContext;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.Map;

/**
 * The current span's context as message headers ({@code traceparent}, and {@code tracestate} when there is one),
 * written with the propagator Micrometer Tracing is configured with (W3C by default). The outbox row stores them,
 * so the relay's publish span and the consumer continue the request's trace, however late the relay sends it.
 */
public record MicrometerTraceContext(Tracer tracer, Propagator propagator) implements TraceContext {

    @Override
    public Map<String, String> currentHeaders() {
        Span span = tracer.currentSpan();
        if (span == null) {
            return Map.of();
        }
        Map<String, String> headers = new HashMap<>(4);
        propagator.inject(span.context(), headers, Map::put);
        return Map.copyOf(headers);
    }
}
