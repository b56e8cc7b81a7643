package dev.bookstore.ordering.bootstrap.benchmark;

import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.bootstrap.benchmark.BenchmarkReport.Run;
import dev.bookstore.ordering.bootstrap.benchmark.BenchmarkReport.Target;
import dev.bookstore.ordering.bootstrap.benchmark.RelayBenchmark.Parameters;
import dev.bookstore.ordering.bootstrap.cdc.LogicalPostgres;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;

/**
 * The polling relay against the CDC relay, draining the same backlog on the same server: the embedded PostgreSQL
 * with {@code wal_level=logical} of the CDC tests ({@link LogicalPostgres}), the machine's RabbitMQ.
 *
 * <ul>
 *   <li><b>polling</b>: the service's relay, as in {@link RelayBenchmark}, {@code drain()} until it claims
 *       nothing;</li>
 *   <li><b>cdc</b>: {@link CdcBenchmarkRelay}: a slot made before the rows are seeded, then the relay started and
 *       timed until the queue holds every message: the engine's start is in the time.</li>
 * </ul>
 *
 * <p>Each drain: {@code cdcMessages} (100,000) freshly seeded rows, then the queue must hold exactly their ids,
 * once each. Beside the rates it reports what a message cost: statements the relay sent to the database
 * ({@code pg_stat_statements}), WAL bytes, this JVM's CPU and the database server's CPU. The two take turns in a
 * rotating order; {@code rounds}, {@code warmup}, {@code batch} (the polling relay's) and {@code perAggregate} as in
 * {@link RelayBenchmark}. The target: cdc ≥ polling on a backlog of 100,000 rows.
 */
class CdcRelayBenchmark {

    private static final String POLLING = "polling (OutboxRelayService)";
    private static final String CDC = "cdc (CdcRelay, Debezium)";

    @Test
    void drainABacklogWithThePollingRelayAndTheCdcRelayOnOneServer() throws Exception {
        Parameters parameters = Parameters.fromSystemProperties();
        int messages = Integer.getInteger("cdcMessages", 100_000);
        RelayBenchmark.quietLogging();
        LoggingSystem logging = LoggingSystem.get(CdcRelayBenchmark.class.getClassLoader());
        logging.setLogLevel("io.debezium", LogLevel.WARN);
        logging.setLogLevel("org.apache.kafka", LogLevel.WARN);
        TestRabbit.Broker broker = RelayBenchmark.broker();
        TestDatabase database = LogicalPostgres.newMigratedDatabase();
        CachingConnectionFactory springFactory = broker.connectionFactory();
        try (HikariDataSource dataSource = RelayBenchmark.pool(database);
             BenchmarkQueue queue = new BenchmarkQueue(broker)) {
            ServerCost server = new ServerCost(LogicalPostgres.postgresDatabase(), database.name());
            OutboxSeeder seeder = new OutboxSeeder(dataSource, queue.exchange(), parameters.perAggregate());
            CdcBenchmarkRelay cdc = new CdcBenchmarkRelay(CDC, database, dataSource, springFactory, queue);
            List<BenchmarkRelay> relays = List.of(
                    new ProjectRelay(POLLING, dataSource, springFactory, parameters.batch(), false), cdc);

            if (parameters.warmup() > 0) {
                for (BenchmarkRelay relay : relays) {
                    Run warmUp = RelayBenchmark.drain(relay, parameters.warmup(), seeder, queue, null);
                    System.out.printf("warm-up %-30s %,8.0f msg/s%n", relay.name(), warmUp.rate());
                }
            }
            BenchmarkReport report = new BenchmarkReport(relays.stream().map(BenchmarkRelay::name).toList());
            List<Long> engineStarts = new ArrayList<>();
            for (int round = 0; round < parameters.rounds(); round++) {
                for (int turn = 0; turn < relays.size(); turn++) {
                    BenchmarkRelay relay = relays.get((round + turn) % relays.size());
                    Run run = RelayBenchmark.drain(relay, messages, seeder, queue, server);
                    System.out.printf("round %d %-30s %,8.0f msg/s%n", round + 1, relay.name(), run.rate());
                    report.add(run);
                    if (relay == cdc) {
                        engineStarts.add(cdc.startNanos() / 1_000_000);
                    }
                }
            }

            String header = """
                    Outbox relays on a server with wal_level=logical: %,d pending rows per drain (%d per aggregate), \
                    polling batch %d, %d round(s), median reported; warm-up %,d rows per relay
                    %s (embedded, wal_level=logical); RabbitMQ %s (%s); %d CPUs, Java %s"""
                    .formatted(messages, parameters.perAggregate(), parameters.batch(), parameters.rounds(),
                            parameters.warmup(), RelayBenchmark.postgresVersion(dataSource), queue.serverVersion(),
                            broker.foundBy(), Runtime.getRuntime().availableProcessors(),
                            System.getProperty("java.version"));
            System.out.println(report.render(header, List.of(new Target("cdc / polling", CDC, POLLING, 1.0))));
            System.out.printf("cdc: from the relay's start to the first message in the queue, ms per round: %s%n",
                    engineStarts);
            System.out.println(report.renderServerCosts());
        } finally {
            springFactory.destroy();
        }
    }
}
