package dev.bookstore.ordering.adapters.web;

import dev.bookstore.ordering.adapters.web.problem.ProblemDocumentation;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The API description that springdoc serves at {@code /v3/api-docs} (OpenAPI 3.1, no token needed) and that is
 * checked in as {@code docs/openapi.json}. Everything in it is fixed: one relative server ({@code /}) instead of
 * the URL of whoever asked, keys in sorted order ({@code springdoc.writer-with-order-by-keys}), so the same code
 * always serves the same document.
 *
 * <p>Building it costs nothing per request to the API: springdoc adds a controller for {@code /v3/api-docs} and
 * no filter or interceptor ({@code OpenApiContractIT} checks that).
 */
@Configuration(proxyBeanMethods = false)
public class ApiDocumentationConfiguration {

    /** The name of the security scheme every operation refers to. */
    public static final String BEARER = "bearer";

    @Bean
    OpenAPI orderingApi() {
        return new OpenAPI()
                .info(new Info()
                        .title("Ordering service")
                        .version("v1")
                        .description("""
                                Places, reads and cancels bookstore orders. Every change is written to the \
                                database together with its event (transactional outbox); the events leave through \
                                RabbitMQ (see docs/events). Errors are RFC 9457 problem details \
                                (application/problem+json).""")
                        .license(new License().name("Apache-2.0").identifier("Apache-2.0")))
                .servers(List.of(new Server().url("/")
                        .description("This service; the paths are relative to where it runs")))
                .components(new Components()
                        .addSecuritySchemes(BEARER, bearerScheme())
                        .addSchemas(ProblemDocumentation.SCHEMA, ProblemDocumentation.problemSchema())
                        .addSchemas(ProblemDocumentation.FIELD_ERROR_SCHEMA,
                                ProblemDocumentation.fieldErrorSchema())
                        .responses(ProblemDocumentation.responses()));
    }

    private static SecurityScheme bearerScheme() {
        return new SecurityScheme()
                .type(SecurityScheme.Type.HTTP)
                .scheme("bearer")
                .bearerFormat("JWT")
                .description("""
                        A JWT from the bookstore's authorization server, in `Authorization: Bearer <token>`. \
                        Its `scope` claim grants what the caller may do, and each operation lists the scopes \
                        that let it through (any one of them suffices):

                        * `%s`: a customer, whose id is the token's subject (`sub`); places orders as itself, \
                        reads and cancels its own;
                        * `%s`: an operator; reads and cancels every order, and uses the operational \
                        endpoints (outbox statistics, administration, the actuator beyond health and info).

                        The token must name this service in `aud`, carry `exp` and be valid for a few hours at most \
                        (`exp` - `iat`). A missing, expired, foreign or badly signed token answers 401 with \
                        `WWW-Authenticate`, a token without the needed scope 403.""".formatted(Caller.CUSTOMER_SCOPE,
                        Caller.OPERATOR_SCOPE));
    }
}
