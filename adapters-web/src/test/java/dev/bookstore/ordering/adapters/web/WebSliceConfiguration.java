package dev.bookstore.ordering.adapters.web;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.bookstore.ordering.adapters.web.problem.ProblemResponses;
import dev.bookstore.ordering.adapters.web.security.BearerTokenProperties;
import dev.bookstore.ordering.adapters.web.security.WebSecurityConfiguration;
import dev.bookstore.ordering.application.outbox.admin.DiscardParkedMessageUseCase;
import dev.bookstore.ordering.application.outbox.admin.GetOutboxStatsQuery;
import dev.bookstore.ordering.application.outbox.admin.InspectOutboxQuery;
import dev.bookstore.ordering.application.outbox.admin.RequeueParkedMessagesUseCase;
import dev.bookstore.ordering.application.outbox.admin.ResendPublishedMessagesUseCase;
import dev.bookstore.ordering.application.summary.GetCustomerOrderSummaryQuery;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.context.annotation.Import;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a {@code @WebMvcTest} of this adapter runs with: its controllers and advice (found by the slice's scan),
 * the security chain as the service configures it, the body size limit, and the application's ports as fakes.
 * Tokens are signed with a key made for the test run ({@link TestTokens}); no database, no broker.
 */
@SpringBootConfiguration
@ComponentScan(excludeFilters = @ComponentScan.Filter(type = FilterType.CUSTOM, classes = TypeExcludeFilter.class))
@ImportAutoConfiguration(ServletWebSecurityAutoConfiguration.class)
@EnableConfigurationProperties(BearerTokenProperties.class)
@Import(WebSecurityConfiguration.class)
class WebSliceConfiguration {

    @Bean
    TestTokens testTokens() {
        return new TestTokens();
    }

    @Bean
    JwtDecoder jwtDecoder(TestTokens tokens) {
        return tokens.decoder();
    }

    @Bean
    FakeOrders fakeOrders() {
        return new FakeOrders();
    }

    @Bean
    ListenerBacklog listenerBacklog() {
        return new ListenerBacklog(() -> 0, 1, new SimpleMeterRegistry());
    }

    /** As {@code WebConfiguration} registers it, without that class's other filters. */
    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(JsonMapper json) {
        return new FilterRegistrationBean<>(
                new RequestBodyLimitFilter(WebConfiguration.MAX_BODY.toBytes(), new ProblemResponses(json)));
    }

    @Bean
    InspectOutboxQuery inspectOutboxQuery() {
        InspectOutboxQuery inspect = mock(InspectOutboxQuery.class);
        when(inspect.parkedMessages(0, 50)).thenReturn(new InspectOutboxQuery.ParkedPage(List.of(), null));
        return inspect;
    }

    @Bean
    RequeueParkedMessagesUseCase requeueParkedMessages() {
        return mock(RequeueParkedMessagesUseCase.class);
    }

    @Bean
    DiscardParkedMessageUseCase discardParkedMessage() {
        return mock(DiscardParkedMessageUseCase.class);
    }

    @Bean
    ResendPublishedMessagesUseCase resendPublishedMessages() {
        return mock(ResendPublishedMessagesUseCase.class);
    }

    @Bean
    GetOutboxStatsQuery getOutboxStatsQuery() {
        return mock(GetOutboxStatsQuery.class);
    }

    @Bean
    GetCustomerOrderSummaryQuery getCustomerOrderSummaryQuery() {
        return mock(GetCustomerOrderSummaryQuery.class);
    }
}
