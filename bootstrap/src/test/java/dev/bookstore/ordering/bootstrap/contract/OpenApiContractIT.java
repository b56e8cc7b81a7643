package dev.bookstore.ordering.bootstrap.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import dev.bookstore.ordering.bootstrap.HttpJson;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * The API contract: the description the service serves at {@code /v3/api-docs} is exactly the checked-in
 * {@code docs/openapi.json}. This test only reads the file; {@link OpenApiDocumentWriter} is what writes it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("postgres")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class OpenApiContractIT {

    private static final TestDatabase DATABASE = TestPostgres.newDatabase();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        OpenApiDocument.serviceProperties(registry, DATABASE);
    }

    @AfterAll
    static void dropDatabase() {
        TestPostgres.drop(DATABASE);
    }

    @LocalServerPort
    int port;

    @Autowired
    ServletContext servletContext;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping handlerMapping;

    @Test
    void theServedDescriptionIsTheCheckedInFile() {
        Path file = OpenApiDocument.checkedIn();
        assertThat(file).as("%s is missing; create it with:%n  %s", OpenApiDocument.PATH,
                OpenApiDocument.REGENERATE_COMMAND).exists();

        List<String> differences = OpenApiDocument.differences(OpenApiDocument.read(file), served());

        assertThat(differences).as(OpenApiDocument.report(differences)).isEmpty();
    }

    @Test
    void theDescriptionNeedsNoTokenWhileTheApiDoesAndItsRefusalIsTheDocumentedProblem() {
        HttpJson anonymous = new HttpJson(port).anonymous();

        assertThat(anonymous.get("/v3/api-docs").status()).isEqualTo(200);
        HttpJson.Response refused = anonymous.get("/orders");
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = refused.json();
        served().at("/components/schemas/Problem/required").forEach(required ->
                assertThat(problem.has(required.asString())).as("401 body has %s", required).isTrue());
    }

    @Test
    void theDescriptionIsTheSameOnEveryRequestAndNamesNoHostOrPort() {
        JsonNode first = served();
        JsonNode second = served();

        assertThat(second).isEqualTo(first);
        assertThat(first.get("servers")).hasSize(1);
        assertThat(first.get("servers").get(0).get("url").asString()).isEqualTo("/");
        assertThat(first.toString()).doesNotContain(":" + port).doesNotContain("127.0.0.1").doesNotContain("localhost");
    }

    @Test
    void theDescriptionTellsTheSecuritySchemeTheScopesProblemsAndIdempotencyKey() {
        JsonNode api = served();

        JsonNode bearer = api.at("/components/securitySchemes/bearer");
        assertThat(bearer.get("type").asString()).isEqualTo("http");
        assertThat(bearer.get("scheme").asString()).isEqualTo("bearer");
        assertThat(bearer.get("bearerFormat").asString()).isEqualTo("JWT");
        JsonNode place = api.at("/paths/~1orders/post");
        assertThat(place.get("security").toString()).isEqualTo("[{\"bearer\":[\"orders\"]}]");
        assertThat(api.at("/paths/~1orders~1{id}/get/security").toString())
                .isEqualTo("[{\"bearer\":[\"orders\"]},{\"bearer\":[\"orders.admin\"]}]");
        assertThat(api.at("/paths/~1outbox~1stats/get/security").toString())
                .isEqualTo("[{\"bearer\":[\"orders.admin\"]}]");
        assertThat(place.get("parameters").toString()).contains("\"name\":\"Idempotency-Key\"", "\"in\":\"header\"");
        assertThat(place.at("/responses/422/$ref").asString()).isEqualTo("#/components/responses/IdempotencyKeyReused");
        assertThat(api.at("/components/responses/InvalidRequest/content").propertyNames())
                .containsExactly("application/problem+json");
        api.at("/paths").forEach(path -> path.forEach(operation ->
                assertThat(operation.get("responses").propertyNames()).contains("400", "401", "403")));
    }

    /**
     * Springdoc serves the description from a controller of its own; it puts no filter and no interceptor in front
     * of the API, so placing an order costs what it cost before.
     */
    @Test
    void springdocAddsNoFilterOrInterceptorToPlacingAnOrder() throws Exception {
        Map<String, ? extends FilterRegistration> filters = servletContext.getFilterRegistrations();
        assertThat(filters).isNotEmpty();
        assertThat(filters.values()).extracting(FilterRegistration::getClassName)
                .noneMatch(name -> name.startsWith("org.springdoc"));

        MockHttpServletRequest placeOrder = new MockHttpServletRequest("POST", "/orders");
        placeOrder.setContentType("application/json");
        HandlerExecutionChain chain = handlerMapping.getHandler(placeOrder);
        assertThat(chain).isNotNull();
        assertThat(chain.getInterceptorList()).extracting(HandlerInterceptor::getClass).extracting(Class::getName)
                .noneMatch(name -> name.startsWith("org.springdoc"));
    }

    private JsonNode served() {
        HttpJson.Response response = new HttpJson(port).anonymous().get("/v3/api-docs");
        assertThat(response.status()).isEqualTo(200);
        return OpenApiDocument.parse(response.body());
    }
}
