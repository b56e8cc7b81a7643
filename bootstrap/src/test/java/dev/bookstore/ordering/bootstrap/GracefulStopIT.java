package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * An instance stopped under load behind a load balancer loses nothing, on the real PostgreSQL and RabbitMQ. A
 * stand-in for the balancer sends orders (20/s) and reads the readiness probe every 100 ms, as HAProxy's check does,
 * and stops sending after two failed checks; the context is closed meanwhile, as SIGTERM closes it. Every order sent
 * is answered 201 (the instance serves on for {@code ordering.shutdown.drain} after readiness turned
 * {@code OUT_OF_SERVICE}, and some are answered after it), the stop leaves no row leased, and another instance
 * publishes every order's message well within the lease: nothing waits for a lease to expire.
 */
class GracefulStopIT {

    private static final Duration DRAIN = Duration.ofSeconds(2);
    private static final Duration LEASE = Duration.ofSeconds(60);

    private OutboxTestBed bed;
    private final List<String> receivedIds = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void freshDatabaseExchangeAndQueue() {
        bed = OutboxTestBed.create();
    }

    @AfterEach
    void removeThem() {
        bed.close();
    }

    private ServiceInstance start() {
        Map<String, String> properties = new HashMap<>();
        properties.put("spring.rabbitmq.username", bed.broker().username());
        properties.put("spring.rabbitmq.password", bed.broker().password());
        properties.put("ordering.shutdown.drain", DRAIN.toSeconds() + "s");
        properties.put("ordering.outbox.lease", LEASE.toSeconds() + "s");
        properties.put("ordering.outbox.confirm-timeout", "2s");
        return ServiceInstance.start(bed.database(), bed.broker().host(), bed.broker().port(), bed.exchange(),
                properties);
    }

    @Test
    void anInstanceStoppedUnderLoadAnswersEveryOrderItWasSentAndLeavesNoRowLeased() throws Exception {
        ServiceInstance instance = start();
        HttpJson http = instance.http;
        UUID customer = UUID.randomUUID();
        AtomicBoolean balancerSends = new AtomicBoolean(true);
        AtomicBoolean notReady = new AtomicBoolean(false);
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger answeredAfterNotReady = new AtomicInteger();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        Set<String> orderIds = Collections.synchronizedSet(new HashSet<>());
        AtomicInteger failedChecks = new AtomicInteger();
        AtomicLong closedAfterMillis = new AtomicLong();

        ScheduledExecutorService schedule = Executors.newScheduledThreadPool(2);
        ExecutorService clients = Executors.newFixedThreadPool(16);
        try {
            // the balancer's health check: every 100 ms, out of rotation after two failures (HAProxy's fall 2)
            HttpClient checks = HttpClient.newHttpClient();
            int port = instance.port();
            schedule.scheduleAtFixedRate(() -> {
                if (probe(checks, port) == 200) {
                    failedChecks.set(0);
                } else {
                    notReady.set(true);
                    if (failedChecks.incrementAndGet() >= 2) {
                        balancerSends.set(false);
                    }
                }
            }, 0, 100, TimeUnit.MILLISECONDS);
            schedule.scheduleAtFixedRate(() -> {
                if (!balancerSends.get()) {
                    return;
                }
                clients.execute(() -> {
                    // the balancer picks the server as it forwards: once the instance is out, another one gets it
                    if (!balancerSends.get()) {
                        return;
                    }
                    sent.incrementAndGet();
                    boolean afterNotReady = notReady.get();
                    try {
                        HttpJson.Response response = http.postJson("/orders",
                                HttpJson.orderJson(customer.toString(), 1),
                                "Idempotency-Key", UUID.randomUUID().toString());
                        if (response.status() == 201) {
                            orderIds.add(response.json().get("id").asString());
                            if (afterNotReady) {
                                answeredAfterNotReady.incrementAndGet();
                            }
                        } else {
                            failures.add(response.status() + " " + response.body());
                        }
                    } catch (RuntimeException | AssertionError e) {
                        failures.add(e.toString());
                    }
                });
            }, 0, 50, TimeUnit.MILLISECONDS);

            await().atMost(Duration.ofSeconds(60)).until(() -> orderIds.size() >= 50 || !failures.isEmpty());
            assertThat(failures).as("requests failed before the stop").isEmpty();
            long closeStarted = System.nanoTime();
            CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> {
                instance.close(); // as SIGTERM closes it
                closedAfterMillis.set(Duration.ofNanos(System.nanoTime() - closeStarted).toMillis());
            });
            closed.get(60, TimeUnit.SECONDS);
            schedule.shutdownNow();
            clients.shutdown();
            assertThat(clients.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            schedule.shutdownNow();
            clients.shutdownNow();
        }

        assertThat(failures).as("requests the balancer sent that failed").isEmpty();
        assertThat(orderIds).hasSize(sent.get());
        assertThat(answeredAfterNotReady.get()).as("orders answered after readiness turned down").isPositive();
        assertThat(closedAfterMillis.get()).as("the stop's duration").isGreaterThanOrEqualTo(DRAIN.toMillis())
                .isLessThan(DRAIN.plusSeconds(20).toMillis());
        assertThat(count("claimed_by IS NOT NULL")).as("rows left leased").isZero();
        assertThat(count("attempts > 0")).isZero();

        long restarted = System.nanoTime();
        try (ServiceInstance next = start()) {
            await().atMost(Duration.ofSeconds(20)).until(() -> count("status = 'PENDING'") == 0);
            await().atMost(Duration.ofSeconds(20)).until(() -> drainQueue() >= orderIds.size());
            assertThat(Duration.ofNanos(System.nanoTime() - restarted)).as("well within the lease")
                    .isLessThan(LEASE.dividedBy(2));
        }
        assertThat(Set.copyOf(receivedIds)).as("every order's message, once lost nothing")
                .isEqualTo(Set.copyOf(bed.jdbc().queryForList("SELECT id::text FROM outbox_message", String.class)));
        assertThat(bed.jdbc().queryForList("SELECT id::text FROM orders", String.class))
                .containsExactlyInAnyOrderElementsOf(orderIds);
    }

    /** The balancer's check: the readiness probe's status, -1 when it cannot connect (a plain client: no checks). */
    private static int probe(HttpClient client, int port) {
        try {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/actuator/health/readiness")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException refused) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private int drainQueue() {
        RabbitTemplate template = new RabbitTemplate(bed.consumerConnection());
        Message message;
        while ((message = template.receive(bed.queue().getName())) != null) {
            receivedIds.add(message.getMessageProperties().getMessageId());
        }
        return receivedIds.size();
    }

    private long count(String where) {
        return bed.jdbc().queryForObject("SELECT count(*) FROM outbox_message WHERE " + where, Long.class);
    }
}
