package dev.bookstore.ordering.bootstrap.tracing;

import dev.bookstore.ordering.application.port.out.TraceContext;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Tracing is Micrometer Tracing's (OpenTelemetry bridge, W3C propagation), configured by Spring Boot: the server
 * observation of each HTTP request continues the caller's {@code traceparent}. This adds the service's own two
 * pieces: the request's context as outbox headers ({@link MicrometerTraceContext}) and the response's
 * {@code traceparent}, so a caller can find the trace of its request.
 */
@Configuration(proxyBeanMethods = false)
public class TracingConfiguration {

    @Bean
    TraceContext traceContext(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        return new MicrometerTraceContext(tracer.getIfAvailable(() -> Tracer.NOOP),
                propagator.getIfAvailable(() -> Propagator.NOOP));
    }

    /** Inside Boot's server observation filter (order {@code HIGHEST_PRECEDENCE + 1}), so a span is current. */
    @Bean
    FilterRegistrationBean<OncePerRequestFilter> traceparentResponseFilter(ObjectProvider<Tracer> tracers,
                                                                         ObjectProvider<Propagator> propagators) {
        Tracer tracer = tracers.getIfAvailable(() -> Tracer.NOOP);
        Propagator propagator = propagators.getIfAvailable(() -> Propagator.NOOP);
        var registration = new FilterRegistrationBean<OncePerRequestFilter>(new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
                                            FilterChain chain) throws ServletException, IOException {
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
        });
        registration.setName("traceparentResponseFilter");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        return registration;
    }
}
