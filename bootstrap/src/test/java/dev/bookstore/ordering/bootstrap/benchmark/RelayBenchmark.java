package dev.bookstore.ordering.bootstrap.benchmark;

import static org.assertj.core.api.Assertions.fail;

import com.rabbitmq.client.Connection;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import dev.bookstore.ordering.bootstrap.benchmark.BenchmarkReport.Run;
import dev.bookstore.ordering.bootstrap.benchmark.BenchmarkReport.Target;
import dev.bookstore.ordering.bootstrap.benchmark.PlainRelay.ConfirmMode;
import java.lang.management.ManagementFactory;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;

/**
 * How fast one instance drains a full outbox to RabbitMQ, next to two yardsticks measured in the same run:
 *
 * <ul>
 *   <li><b>project</b>: the service's relay ({@code OutboxRelayService} over {@code JdbcOutboxStore} and
 *       {@code RabbitMessagePublisher}, correlated confirms, returns on), calling {@code drain()} until it
 *       claims nothing;</li>
 *   <li><b>plain</b>: {@link PlainRelay} in {@link ConfirmMode#BATCH}: JDBC and the RabbitMQ Java client only,
 *       claim with {@code SKIP LOCKED}, publish the batch, wait for its confirms, mark, commit;</li>
 *   <li><b>wait-each</b>: the same, waiting for every confirm before the next publish;</li>
 *   <li><b>project, ordered mode</b>: the service's relay with {@code ordering.outbox.ordered=true}, to show
 *       what ordered mode costs (no target: the ratio to the project's relay is reported).</li>
 * </ul>
 *
 * <p>Each drain starts from {@code messages} freshly seeded pending rows (seeding is not timed) and ends when no
 * row is pending; then the queue must hold exactly the seeded message ids, once each, or the benchmark fails.
 * The relays take turns in a rotating order, every relay warms up first, and the median of the rounds is
 * reported with the ratios the issue targets (project ≥ 0.8 × plain, ≥ 3 × wait-each). Ratios are printed,
 * not asserted: absolute times depend on the machine and on what else runs on it.
 *
 * <p>Not part of the normal build: the name matches neither Surefire's nor Failsafe's default includes; the
 * {@code benchmark} Maven profile runs it (see docs/benchmarks.md). System properties: {@code messages}
 * (20000), {@code batch} (500), {@code rounds} (3), {@code warmup} (10000 rows per relay before anything is
 * timed, so that the JIT has compiled every relay's per-message code; 0 to skip), {@code perAggregate} (2: rows
 * per aggregate id, spread over the fill; only ordered mode looks at them).
 */
class RelayBenchmark {

    private static final String PROJECT = "project (OutboxRelayService)";
    private static final String PROJECT_ORDERED = "project, ordered mode";
    private static final String PLAIN = "plain JDBC + amqp-client";
    private static final String WAIT_EACH = "wait-each (confirm per msg)";

    /** A moment for the broker and the database to finish what the seeding and purging started. */
    static final long SETTLE_MILLIS = 500;

    record Parameters(int messages, int batch, int rounds, int warmup, int perAggregate) {

        static Parameters fromSystemProperties() {
            return new Parameters(Integer.getInteger("messages", 20_000), Integer.getInteger("batch", 500),
                    Integer.getInteger("rounds", 3), Integer.getInteger("warmup", 10_000),
                    Integer.getInteger("perAggregate", 2));
        }
    }

    @Test
    void drainTheOutboxWithTheProjectsRelayAndTwoPlainOnes() throws Exception {
        Parameters parameters = Parameters.fromSystemProperties();
        quietLogging();
        TestRabbit.Broker broker = broker();
        TestDatabase database = TestPostgres.newDatabase();
        CachingConnectionFactory springFactory = broker.connectionFactory();
        try (HikariDataSource dataSource = pool(database);
             BenchmarkQueue queue = new BenchmarkQueue(broker);
             Connection plainConnection = broker.rawConnectionFactory().newConnection("relay-benchmark-plain")) {
            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration/postgresql").load().migrate();
            OutboxSeeder seeder = new OutboxSeeder(dataSource, queue.exchange(), parameters.perAggregate());
            List<BenchmarkRelay> relays = List.of(
                    new ProjectRelay(PROJECT, dataSource, springFactory, parameters.batch(), false),
                    new ProjectRelay(PROJECT_ORDERED, dataSource, springFactory, parameters.batch(), true),
                    new PlainRelay(PLAIN, dataSource, plainConnection, parameters.batch(), ConfirmMode.BATCH),
                    new PlainRelay(WAIT_EACH, dataSource, plainConnection, parameters.batch(), ConfirmMode.EACH));

            if (parameters.warmup() > 0) {
                for (BenchmarkRelay relay : relays) {
                    Run warmUp = drain(relay, parameters.warmup(), seeder, queue, null);
                    System.out.printf("warm-up %-30s %,8.0f msg/s%n", relay.name(), warmUp.rate());
                }
            }
            BenchmarkReport report = new BenchmarkReport(relays.stream().map(BenchmarkRelay::name).toList());
            for (int round = 0; round < parameters.rounds(); round++) {
                for (int turn = 0; turn < relays.size(); turn++) {
                    // rotate who goes first, so that a slow moment of the machine does not always hit the same one
                    BenchmarkRelay relay = relays.get((round + turn) % relays.size());
                    Run run = drain(relay, parameters.messages(), seeder, queue, null);
                    System.out.printf("round %d %-30s %,8.0f msg/s%n", round + 1, relay.name(), run.rate());
                    report.add(run);
                }
            }

            String header = """
                    Outbox relay benchmark: %,d pending rows per drain (%d per aggregate), batch %d, %d round(s), \
                    median reported; warm-up %,d rows per relay
                    %s (%s); RabbitMQ %s (%s); %d CPUs, Java %s"""
                    .formatted(parameters.messages(), parameters.perAggregate(), parameters.batch(),
                            parameters.rounds(), parameters.warmup(), postgresVersion(dataSource),
                            TestPostgres.description(), queue.serverVersion(),
                            broker.foundBy(), Runtime.getRuntime().availableProcessors(),
                            System.getProperty("java.version"));
            System.out.println(report.render(header, List.of(
                    new Target("project / plain", PROJECT, PLAIN, 0.8),
                    new Target("project / wait-each", PROJECT, WAIT_EACH, 3.0),
                    Target.reported("ordered / project", PROJECT_ORDERED, PROJECT))));
        } finally {
            springFactory.destroy();
            TestPostgres.drop(database);
        }
    }

    /**
     * Seeds {@code messages} rows, times one relay draining them, and checks what reached the queue and, for a relay
     * that marks rows, the outbox. With a {@code server} (else null), also what the drain cost the database server.
     */
    static Run drain(BenchmarkRelay relay, int messages, OutboxSeeder seeder, BenchmarkQueue queue, ServerCost server)
            throws Exception {
        relay.beforeSeeding(messages);
        Set<UUID> seeded = seeder.seed(messages);
        queue.purge();
        Thread.sleep(SETTLE_MILLIS);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        if (server != null) {
            server.start();
        }
        long cpuBefore = os.getProcessCpuTime();
        long started = System.nanoTime();
        Phases phases = relay.drainAll();
        long elapsed = System.nanoTime() - started;
        long cpu = os.getProcessCpuTime() - cpuBefore;
        ServerCost.Spent spent = server == null ? null : server.stop();
        relay.afterDrain();
        if (relay.marksPublished()) {
            seeder.expectAllPublished(messages);
        }
        queue.expectExactly(seeded);
        return new Run(relay.name(), messages, elapsed, cpu, phases, spent);
    }

    /** The same kind of pool for every relay, as the service would configure it. */
    static HikariDataSource pool(TestDatabase database) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("relay-benchmark");
        config.setJdbcUrl(database.url());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(4);
        return new HikariDataSource(config);
    }

    static TestRabbit.Broker broker() {
        try {
            return TestRabbit.broker();
        } catch (TestAbortedException e) {
            return fail("The relay benchmark needs a RabbitMQ: " + e.getMessage());
        }
    }

    static String postgresVersion(HikariDataSource dataSource) throws Exception {
        try (java.sql.Connection connection = dataSource.getConnection();
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SHOW server_version")) {
            row.next();
            return "PostgreSQL " + row.getString(1);
        }
    }

    /** No Spring Boot application starts here, so nothing else would lift Logback's default DEBUG level. */
    static void quietLogging() {
        LoggingSystem logging = LoggingSystem.get(RelayBenchmark.class.getClassLoader());
        logging.setLogLevel(LoggingSystem.ROOT_LOGGER_NAME, LogLevel.INFO);
        logging.setLogLevel("com.zaxxer.hikari", LogLevel.WARN);
        logging.setLogLevel("org.flywaydb", LogLevel.WARN);
    }
}
