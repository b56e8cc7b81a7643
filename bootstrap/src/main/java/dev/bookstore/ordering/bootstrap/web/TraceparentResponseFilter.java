package dev.bookstore.ordering.bootstrap.web;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
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
 */
final class TraceparentResponseFilter extends OncePerRequestFilter {

    private final Tracer tracer;
    private final Propagator propagator;

    TraceparentResponseFilter(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Span span = tracer.currentSpan();
        if (span != null) {
            propagator.inject(span.context(), response, (carrier, key, value) -> {
                if ("traceparent".equals(key)) {
                    carrier.setHeader(key, value);
                }
            });
        }
        chain.doFilter(request, response);
    }
}
