package dev.bookstore.ordering.bootstrap.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import dev.bookstore.ordering.bootstrap.HttpJson;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Regenerates {@code docs/openapi.json} from the running service: the only code that writes the file. Never part
 * of the normal build (its name matches neither Surefire's nor Failsafe's patterns); the {@code openapi} Maven
 * profile runs it: {@value OpenApiDocument#REGENERATE_COMMAND}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("postgres")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class OpenApiDocumentWriter {

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

    @Test
    void writeTheServedDescriptionToDocsOpenapiJson() {
        HttpJson.Response response = new HttpJson(port).anonymous().get("/v3/api-docs");
        assertThat(response.status()).isEqualTo(200);

        Path file = OpenApiDocument.checkedIn();
        OpenApiDocument.write(OpenApiDocument.parse(response.body()), file);

        assertThat(OpenApiDocument.differences(OpenApiDocument.read(file), OpenApiDocument.parse(response.body())))
                .isEmpty();
        System.out.println("Wrote " + file);
    }
}
