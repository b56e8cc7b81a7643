import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The drills' order generator, with the JDK only. Sends {@code POST /orders} on a fixed schedule ({@code --rate}
 * per second for {@code --seconds}), every request with an {@code Idempotency-Key} of its own, spread round-robin
 * over the instances ({@code --urls}). A request that fails (I/O error, timeout, 5xx, 429) is sent again with the
 * same key, to the next instance, with backoff, until {@code --retry-seconds} have passed: a retry of an order that
 * was in fact stored gets the first order back, so every accepted order exists once.
 *
 * <p>With {@code --cancel}, the schedule is sequential instead: each order is placed on the first instance and, as
 * soon as it is answered, cancelled on the second ({@code POST /orders/{id}/cancel}), also retried.
 *
 * <p>Writes one line per request to {@code --out}: {@code key orderId|- placeStatus cancelStatus|- attempts} (sends
 * of the place and, with {@code --cancel}, the cancel call, less one: 1 when nothing was retried), and
 * prints {@code LOAD requests=N ok=N failed=N retried=N retries=N cancel_failed=N}. The bearer token comes from
 * the environment ({@code AUTH_HEADER}, "Bearer ...").
 *
 * <p>For the rolling drill: {@code --warmup-seconds} at {@code --warmup-rate} first, in the same JVM, then
 * {@code --settle-seconds} at {@code --rate}, in which the service catches up with what the warm-up left it (both
 * phases' requests to {@code --warmup-out}), then {@code MEASURED LOAD STARTED} on standard output and the load proper, which with
 * {@code --stop-file} ends when that file appears (at most {@code --seconds}); {@code --latencies} gets one line per
 * measured request: {@code scheduledEpochMillis firstStatus finalStatus attempts millisFromScheduleToAnswer orderId|-}
 * (status -1: an I/O error). The time counts from the request's place in the schedule, not from its send, so a
 * generator that falls behind shows as latency.
 *
 * <p>Run: {@code java DrillLoad.java --urls http://127.0.0.1:18181,http://127.0.0.1:18182 --rate 100 --seconds 20
 * --out orders.txt [--cancel] [--customer UUID] [--retry-seconds 60] [--warmup-seconds 40 --warmup-rate 250
 * --warmup-out warmup.txt] [--settle-seconds 40] [--stop-file stop] [--latencies latencies.txt]}
 */
public class DrillLoad {

    static final String ORDER = "{\"customerId\":\"%s\",\"currency\":\"EUR\",\"items\":["
            + "{\"bookId\":\"978-0134494166\",\"quantity\":2,\"unitPrice\":\"39.90\"}]}";

    record Outcome(String key, String orderId, int placeStatus, int cancelStatus, int attempts, long scheduledMillis,
                   int firstStatus, long millis) {
    }

    static List<URI> urls = new ArrayList<>();
    static String auth;
    static String customer = "0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60";
    static double retrySeconds = 60;
    static final AtomicInteger ERRORS_PRINTED = new AtomicInteger();
    static HttpClient client;

    public static void main(String[] args) throws Exception {
        double rate = 100;
        double seconds = 10;
        int count = -1;
        boolean cancel = false;
        Path out = Path.of("orders.txt");
        double warmupSeconds = 0;
        double warmupRate = 250;
        Path warmupOut = null;
        double settleSeconds = 0;
        Path stopFile = null;
        Path latencies = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--urls" -> {
                    for (String u : args[++i].split(",")) {
                        urls.add(URI.create(u.trim()));
                    }
                }
                case "--rate" -> rate = Double.parseDouble(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--count" -> count = Integer.parseInt(args[++i]);
                case "--cancel" -> cancel = true;
                case "--customer" -> customer = args[++i];
                case "--retry-seconds" -> retrySeconds = Double.parseDouble(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--warmup-seconds" -> warmupSeconds = Double.parseDouble(args[++i]);
                case "--warmup-rate" -> warmupRate = Double.parseDouble(args[++i]);
                case "--warmup-out" -> warmupOut = Path.of(args[++i]);
                case "--settle-seconds" -> settleSeconds = Double.parseDouble(args[++i]);
                case "--stop-file" -> stopFile = Path.of(args[++i]);
                case "--latencies" -> latencies = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        auth = System.getenv("AUTH_HEADER");
        ExecutorService pool = Executors.newFixedThreadPool(cancel ? 1 : 128);
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).executor(Executors.newFixedThreadPool(4)).build();
        if (warmupSeconds > 0) {
            List<Future<Outcome>> warm = new ArrayList<>(schedule(pool, warmupRate,
                    (int) Math.round(warmupRate * warmupSeconds), false, null));
            warm.addAll(schedule(pool, rate, (int) Math.round(rate * settleSeconds), false, null));
            report(warm, warmupOut == null ? Path.of("warmup.txt") : warmupOut, false, null, "WARMUP");
        }
        System.out.println("MEASURED LOAD STARTED");
        System.out.flush();
        int n = count > 0 ? count : (int) Math.round(rate * seconds);
        List<Future<Outcome>> futures = schedule(pool, rate, n, cancel, stopFile);
        report(futures, out, cancel, latencies, "LOAD");
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.SECONDS);
        System.exit(0);
    }

    /** Submits {@code n} requests on the schedule of {@code rate}, until {@code stopFile} appears if given. */
    static List<Future<Outcome>> schedule(ExecutorService pool, double rate, int n, boolean cancel, Path stopFile) {
        List<Future<Outcome>> futures = new ArrayList<>(n);
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        for (int i = 0; i < n; i++) {
            final int index = i;
            final long offsetNanos = (long) (i * 1e9 / rate);
            if (!cancel) {
                long due = start + offsetNanos;
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
            if (stopFile != null && i % 10 == 0 && Files.exists(stopFile)) {
                break;
            }
            final long scheduledNanos = start + offsetNanos;
            final long scheduledMillis = startMillis + offsetNanos / 1_000_000;
            futures.add(pool.submit(() -> order(index, cancel, scheduledNanos, scheduledMillis)));
        }
        return futures;
    }

    static void report(List<Future<Outcome>> futures, Path out, boolean cancel, Path latencies, String label)
            throws Exception {
        long start = System.nanoTime();
        int ok = 0;
        int failed = 0;
        int retried = 0;
        int retries = 0;
        int cancelFailed = 0;
        int firstFailed = 0;
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out));
             PrintWriter times = latencies == null ? null : new PrintWriter(Files.newBufferedWriter(latencies))) {
            for (Future<Outcome> future : futures) {
                Outcome o = future.get();
                writer.printf("%s %s %d %s %d%n", o.key(), o.orderId() == null ? "-" : o.orderId(), o.placeStatus(),
                        cancel ? Integer.toString(o.cancelStatus()) : "-", o.attempts());
                if (times != null) {
                    times.printf("%d %d %d %d %d %s%n", o.scheduledMillis(), o.firstStatus(), o.placeStatus(),
                            o.attempts(), o.millis(), o.orderId() == null ? "-" : o.orderId());
                }
                if (o.placeStatus() == 201) {
                    ok++;
                } else {
                    failed++;
                }
                if (o.firstStatus() < 200 || o.firstStatus() > 299) {
                    firstFailed++;
                }
                if (cancel && o.cancelStatus() != 200) {
                    cancelFailed++;
                }
                if (o.attempts() > 1) {
                    retried++;
                    retries += o.attempts() - 1;
                }
            }
        }
        System.out.printf(Locale.ROOT, "%s requests=%d ok=%d failed=%d retried=%d retries=%d cancel_failed=%d "
                + "first_try_not_2xx=%d%n", label, futures.size(), ok, failed, retried, retries, cancelFailed,
                firstFailed);
    }

    static Outcome order(int index, boolean cancel, long scheduledNanos, long scheduledMillis) {
        String key = UUID.randomUUID().toString();
        String body = ORDER.formatted(customer);
        int[] attempts = {0, 0};
        // with --cancel: placed on the first instance, cancelled on the second; else round-robin
        Answer placed = send(cancel ? 0 : index, "/orders", body, key, 201, attempts);
        long millis = (System.nanoTime() - scheduledNanos) / 1_000_000;
        if (placed.status != 201 || !cancel) {
            return new Outcome(key, placed.orderId, placed.status, 0, attempts[0], scheduledMillis, attempts[1],
                    millis);
        }
        int[] cancelAttempts = {0, 0};
        Answer cancelled = send(1, "/orders/" + placed.orderId + "/cancel", "{\"reason\":\"drill\"}", null,
                200, cancelAttempts);
        return new Outcome(key, placed.orderId, placed.status, cancelled.status, attempts[0] + cancelAttempts[0] - 1,
                scheduledMillis, attempts[1], millis);
    }

    record Answer(int status, String orderId) {
    }

    /**
     * Sends until the expected status or a final 4xx, rotating over the instances; -1 = I/O error at the end.
     * {@code attempts[0]} counts the sends, {@code attempts[1]} gets the first send's status.
     */
    static Answer send(int first, String path, String body, String key, int expected, int[] attempts) {
        long giveUp = System.nanoTime() + (long) (retrySeconds * 1e9);
        long backoffMs = 100;
        int status = -1;
        for (int attempt = 0; ; attempt++) {
            attempts[0]++;
            URI base = urls.get((first + attempt) % urls.size());
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (auth != null && !auth.isBlank()) {
                request.header("Authorization", auth.trim());
            }
            if (key != null) {
                request.header("Idempotency-Key", key);
            }
            String answer = null;
            try {
                HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
                status = response.statusCode();
                answer = response.body();
            } catch (IOException e) {
                status = -1;
                if (ERRORS_PRINTED.incrementAndGet() <= 5) {
                    System.err.println("load: " + path + " failed (will retry): " + e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Answer(-1, null);
            }
            if (attempt == 0) {
                attempts[1] = status;
            }
            if (status == expected) {
                return new Answer(status, jsonString(answer, "id"));
            }
            if (key == null && status == 409 && attempt > 0) {
                // a cancel retried after a failure: the first attempt did cancel the order (409: not PLACED any more)
                return new Answer(expected, null);
            }
            boolean retryable = status == -1 || status >= 500 || status == 429 || status == 409 && key != null;
            if (status > 0 && ERRORS_PRINTED.incrementAndGet() <= 5) {
                System.err.println("load: " + path + " answered " + status + (retryable ? " (will retry): " : ": ")
                        + answer);
            }
            if (!retryable || System.nanoTime() > giveUp) {
                return new Answer(status, null);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoffMs));
            backoffMs = Math.min(2000, backoffMs * 2);
        }
    }

    static String jsonString(String json, String name) {
        if (json == null) {
            return null;
        }
        String key = "\"" + name + "\":\"";
        int at = json.indexOf(key);
        if (at < 0) {
            return null;
        }
        int from = at + key.length();
        int to = json.indexOf('"', from);
        return to < 0 ? null : json.substring(from, to);
    }
}
