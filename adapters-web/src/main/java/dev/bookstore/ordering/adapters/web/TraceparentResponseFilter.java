package dev.bookstore.ordering.adapters.web;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers with the {@code traceparent} of the request's server span, so a caller can find the trace of its
 * request (and the outbox message it caused). Runs inside Boot's server observation filter, where that span is
 * current.
 *
 * <p>The header is written in the W3C form straight from the span's ids: asking the configured propagator
 * instead ran the baggage propagator too on every request (2 % of the request threads' CPU in a profile) for a
 * header this filter then dropped. An unsampled trace has one too (flags {@code 00}): its ids are in the log
 * lines. Without tracing (no span, or one without a trace id) there is no header.
 */
final class TraceparentResponseFilter extends OncePerRequestFilter {

    /** W3C's and OpenTelemetry's "no trace". */
    private static final String INVALID_TRACE_ID = "0".repeat(32);

    private final Tracer tracer;

    TraceparentResponseFilter(Tracer tracer) {
        this.tracer = tracer;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Span span = tracer.currentSpan();
        if (span != null && hasTraceId(span.context())) {
            response.setHeader("traceparent", traceparent(span.context()));
        }
        chain.doFilter(request, response);
    }

    private static boolean hasTraceId(TraceContext context) {
        String traceId = context.traceId();
        return traceId != null && !traceId.isEmpty() && !traceId.equals(INVALID_TRACE_ID);
    }

    /** {@code 00-<trace id>-<span id>-<flags>}: version 00, flag 01 where the trace is sampled. */
    static String traceparent(TraceContext context) {
        return "00-" + context.traceId() + "-" + context.spanId()
                + (Boolean.TRUE.equals(context.sampled()) ? "-01" : "-00");
    }
}
