package dev.bookstore.ordering.bootstrap.web;

import dev.bookstore.ordering.bootstrap.tracing.W3cTraceContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.springframework.web.filter.OncePerRequestFilter;

/** Takes the caller's W3C trace context in, for the length of the request, and echoes the service's span. */
final class TraceContextFilter extends OncePerRequestFilter {

    private final W3cTraceContext traceContext;

    TraceContextFilter(W3cTraceContext traceContext) {
        this.traceContext = traceContext;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Map<String, String> headers = traceContext.begin(request.getHeader("traceparent"),
                request.getHeader("tracestate"));
        response.setHeader("traceparent", headers.get("traceparent"));
        try {
            chain.doFilter(request, response);
        } finally {
            traceContext.end();
        }
    }
}
