package dev.bookstore.ordering.adapters.web;

import dev.bookstore.ordering.adapters.web.problem.ProblemResponses;
import io.micrometer.tracing.Tracer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.jackson.autoconfigure.JsonFactoryBuilderCustomizer;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * The HTTP edge: body size limit ahead of Spring MVC, the trace's {@code traceparent} in every answer, the order in
 * which requests are matched, and how strictly JSON is read. The JSON settings apply to the service's one
 * {@link JsonMapper}; the service reads no JSON that would need less.
 */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration {

    public static final DataSize MAX_BODY = DataSize.ofKilobytes(64);

    /** Ahead of the actuator's endpoint mapping (-100). */
    static final int API_MAPPING_ORDER = -200;

    /** Objects and arrays inside each other; an order body needs 3. */
    static final int MAX_NESTING_DEPTH = 16;

    /**
     * Reading costs no more than the body size allows: nothing nests deeper than {@value #MAX_NESTING_DEPTH}, and a
     * key given twice is refused rather than silently overwritten by the last. Numbers keep Jackson's limit of
     * 1000 characters (also for numbers written as strings): parsing one that long takes microseconds, and
     * anything shorter reaches the checks that name its field ({@code PlaceOrderCommand}, {@code Money}).
     */
    @Bean
    JsonFactoryBuilderCustomizer boundedJsonReading() {
        return factory -> factory
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
    }

    /**
     * Values are of the type the API says. An integer field ({@code quantity}) takes a JSON integer literal only:
     * {@code 1.5} is not truncated to 1, and {@code 1.0}, {@code 1e0} and {@code "1"} are refused as well, because
     * the API documents a whole number and a client that sends a fraction or a string has a bug worth telling it
     * about. A text field ({@code bookId}, {@code reason}) takes a JSON string, not {@code 42} or {@code true}.
     * Decimal fields ({@code unitPrice}) keep taking a string or a number, read from its text and never through a
     * binary float.
     */
    @Bean
    JsonMapperBuilderCustomizer exactJsonTypes() {
        return mapper -> mapper
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .withCoercionConfig(LogicalType.Integer, integers -> integers
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Textual, texts -> texts
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }

    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(JsonMapper json) {
        var registration = new FilterRegistrationBean<>(
                new RequestBodyLimitFilter(MAX_BODY.toBytes(), new ProblemResponses(json)));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /**
     * Inside Boot's server observation filter and the {@code traceparent} header, outside the security chain, so that
     * its answers (401, 403 as problem details) are written once too. Only on the API's and the actuator's paths,
     * which answer in place: a request the container forwards (the page's {@code /} to {@code index.html}) is
     * finished by the container when the forward returns, before the held body could be copied out, and went out
     * empty.
     */
    @Bean
    FilterRegistrationBean<SingleWriteResponseFilter> singleWriteResponseFilter() {
        var registration = new FilterRegistrationBean<>(new SingleWriteResponseFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 3);
        registration.addUrlPatterns("/orders/*", "/customers/*", "/admin/*", "/outbox/*", "/actuator/*");
        return registration;
    }

    /**
     * The API's request mappings are searched before the actuator's. Boot orders the actuator's endpoint mapping
     * (-100) ahead of the application's (0), so every {@code POST /orders} was first looked up among the actuator's
     * endpoints and, matching none, searched through them all again for a partial match to report (2.8 % of the
     * request threads' CPU in a profile at 32 connections). No API path can match below {@code /actuator}
     * ({@code PlaceOrderIT} checks it), so which mapping answers a request does not change, only how soon.
     */
    @Bean
    static BeanPostProcessor apiMappingsBeforeActuatorEndpoints() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean instanceof RequestMappingHandlerMapping api
                        && beanName.equals("requestMappingHandlerMapping")) {
                    api.setOrder(API_MAPPING_ORDER);
                }
                return bean;
            }
        };
    }

    /** Inside Boot's server observation filter (order {@code HIGHEST_PRECEDENCE + 1}), where the span is current. */
    @Bean
    FilterRegistrationBean<TraceparentResponseFilter> traceparentResponseFilter(ObjectProvider<Tracer> tracer) {
        var registration = new FilterRegistrationBean<>(new TraceparentResponseFilter(
                tracer.getIfAvailable(() -> Tracer.NOOP)));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        return registration;
    }
}
