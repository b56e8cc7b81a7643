package dev.bookstore.ordering.bootstrap.web;

import dev.bookstore.ordering.bootstrap.tracing.W3cTraceContext;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.json.JsonMapper;

/** The HTTP edge: body size limit and trace context, ahead of Spring MVC. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration {

    static final DataSize MAX_BODY = DataSize.ofKilobytes(64);

    @Bean
    W3cTraceContext traceContext() {
        return new W3cTraceContext();
    }

    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(JsonMapper json) {
        var registration = new FilterRegistrationBean<>(
                new RequestBodyLimitFilter(MAX_BODY.toBytes(), new ProblemResponses(json)));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    @Bean
    FilterRegistrationBean<TraceContextFilter> traceContextFilter(W3cTraceContext traceContext) {
        var registration = new FilterRegistrationBean<>(new TraceContextFilter(traceContext));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        return registration;
    }
}
