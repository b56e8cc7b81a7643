package dev.bookstore.ordering.application.outbox;

import java.util.Map;

/**
 * The trace context of the current request, as message headers (W3C {@code traceparent}, {@code tracestate}),
 * so that a trace continues through the outbox to the consumers. Empty when nothing is being traced.
 */
public interface TraceContext {

    Map<String, String> currentHeaders();

    static TraceContext none() {
        return Map::of;
    }
}
