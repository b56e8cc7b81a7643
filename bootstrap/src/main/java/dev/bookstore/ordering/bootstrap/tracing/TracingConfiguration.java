package dev.bookstore.ordering.bootstrap.tracing;

import dev.bookstore.ordering.application.outbox.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tracing is Micrometer Tracing's (OpenTelemetry bridge, W3C propagation), configured by Spring Boot: the server
 * observation of each HTTP request continues the caller's {@code traceparent}. The service adds the request's
 * context as outbox headers ({@link MicrometerTraceContext}), the relay's publish span
 * ({@link TracingMessagePublisher}) and the response's {@code traceparent} (adapters-web).
 */
@Configuration(proxyBeanMethods = false)
public class TracingConfiguration {

    @Bean
    TraceContext traceContext(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        return new MicrometerTraceContext(tracer.getIfAvailable(() -> Tracer.NOOP),
                propagator.getIfAvailable(() -> Propagator.NOOP));
    }
}
