import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Open-loop load on POST /orders, with the order events consumed from RabbitMQ in the same process.
 *
 * <p><b>Sending.</b> Request i of a phase is due at {@code start + i / rate}, whatever happened to the ones before
 * it. A scheduler thread puts each request on a queue at its due time; connection threads (plain sockets, HTTP/1.1
 * keep-alive, one request at a time each) take them. A new connection is opened whenever a request is due and no
 * connection is idle, up to {@code --max-in-flight} (256); beyond that requests wait in the queue. Every latency is
 * measured from the <em>intended</em> send time, so waiting in the queue, for a connection or for a slow answer all
 * count (no coordinated omission). When the schedule has ended, requests get {@code --drain-seconds} to be started;
 * any still queued then count as "not sent", with the time they waited as their latency.
 *
 * <p><b>Consuming.</b> One consumer (auto-ack) on the benchmark queue, bound to the service's exchange with
 * {@code order.#}, notes for every message its receive time and matches it to an order by {@code correlation_id}
 * (= the order id, also the {@code "id"} of the 201 answer); {@code message_id} (= outbox id) seen twice counts as a
 * duplicate. After the last answer it waits up to {@code --message-wait-seconds} for the messages still due. Per
 * order answered 201: HTTP latency, e2e latency (consumer receive − intended send) and placed-to-consumer latency
 * (consumer receive − the answer's {@code placedAt}; same host, same clock). <b>lost</b> = orders answered 201 whose
 * message never arrived.
 *
 * <p><b>Phases.</b> First {@code --warmup-seconds} (3) at the first rate to warm this client up, not reported; then
 * (a) {@code --rate} req/s for {@code --seconds}; (b) a step search over {@code --steps} rates,
 * {@code --step-seconds} each, stopping at the first rate that fails: HTTP or placed-to-consumer p99 ≥
 * {@code --p99-limit-ms}, any non-201 answer, I/O error, request not sent or lost message, or, with
 * {@code --backlog-sql}, more than one second of orders left undone when the step's schedule ends (the query, run over
 * JDBC at {@code --jdbc-url} as {@code --jdbc-user}, counts the work the service has deferred: its listener's and its
 * relay's backlog). The queue is purged before every phase. Markdown
 * goes to stdout, progress to stderr. {@code AUTH_HEADER} (environment), when set, is sent as the Authorization
 * header.
 *
 * <p>Run (JDK 17 single-file launcher): {@code java -cp amqp-client.jar:slf4j-api.jar OpenLoop.java --url
 * http://127.0.0.1:18080/orders --queue bench.orders --rate 200 --seconds 30 --steps 200,400,600 --step-seconds 10}
 */
public class OpenLoop {

    static final String BODY = "{\"customerId\":\"0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60\",\"currency\":\"EUR\","
            + "\"items\":[{\"bookId\":\"978-0134494166\",\"quantity\":2,\"unitPrice\":\"39.90\"},"
            + "{\"bookId\":\"978-0321125217\",\"quantity\":1,\"unitPrice\":\"54.99\"}]}";

    /** A figure with no values behind it. */
    static final long NONE = Long.MIN_VALUE;
    static final int IO_ERROR = -1;
    static final int NOT_SENT = -2;
    static final int SOCKET_TIMEOUT_MS = 30_000;
    /** Connections idle longer than this are reopened before use (Tomcat closes idle keep-alive ones after 20 s). */
    static final long IDLE_REOPEN_NS = TimeUnit.SECONDS.toNanos(10);

    // settings
    static String host;
    static int port;
    static byte[] request;
    static int maxInFlight = 256;
    static double drainSeconds = 10;
    static double messageWaitSeconds = 30;
    /** Counts the service's deferred work at a step's end; null: not counted. */
    static java.sql.Connection backlogConnection;
    static String backlogSql;

    // connections
    static final LinkedBlockingQueue<Ticket> TICKETS = new LinkedBlockingQueue<>();
    static final AtomicInteger IDLE_WORKERS = new AtomicInteger();
    static final AtomicInteger WORKERS = new AtomicInteger();
    static final AtomicInteger ERRORS_PRINTED = new AtomicInteger();

    // consumer
    record Receipt(long nanos, long wallMicros) {
    }

    static final ConcurrentHashMap<String, Receipt> RECEIPTS = new ConcurrentHashMap<>();
    static final Set<String> MESSAGE_IDS = ConcurrentHashMap.newKeySet();
    static final AtomicLong DUPLICATES = new AtomicLong();

    record Ticket(Phase phase, int index) {
    }

    /** One phase's requests; slot i is written once by the connection thread that finished request i. */
    static final class Phase {
        final double rate;
        final int n;
        final long start;
        final long[] done;
        final int[] status;
        final String[] orderId;
        final long[] placedAtMicros;
        final AtomicInteger completed = new AtomicInteger();

        Phase(double rate, int n, long start) {
            this.rate = rate;
            this.n = n;
            this.start = start;
            done = new long[n];
            status = new int[n];
            orderId = new String[n];
            placedAtMicros = new long[n];
        }

        long intended(int i) {
            return start + (long) (i * 1e9 / rate);
        }

        void record(int i, long doneNs, int code, String body) {
            done[i] = doneNs;
            status[i] = code;
            placedAtMicros[i] = Long.MIN_VALUE;
            if (code == 201 && body != null) {
                orderId[i] = jsonString(body, "id");
                String placedAt = jsonString(body, "placedAt");
                if (placedAt != null) {
                    try {
                        Instant instant = Instant.parse(placedAt);
                        placedAtMicros[i] = instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
                    } catch (RuntimeException e) {
                        // left unknown: no placed-to-consumer figure for this order
                    }
                }
            }
            completed.incrementAndGet();
        }
    }

    /** Points the connection threads at {@code url} (a POST of {@link #BODY}), with the request's bytes. */
    static void target(String url) throws IOException {
        URI uri = URI.create(url);
        host = uri.getHost();
        port = uri.getPort() < 0 ? 80 : uri.getPort();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder()
                .append("POST ").append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append(':').append(port).append("\r\n")
                .append("Content-Type: application/json\r\n")
                .append("Accept: application/json\r\n")
                .append("Content-Length: ").append(body.length).append("\r\n");
        String auth = System.getenv("AUTH_HEADER");
        if (auth != null && !auth.isBlank()) {
            head.append("Authorization: ").append(auth.trim()).append("\r\n");
        }
        head.append("\r\n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        bytes.write(body);
        request = bytes.toByteArray();
    }

    public static void main(String[] args) throws Exception {
        String url = "http://127.0.0.1:18080/orders";
        String amqpHost = "127.0.0.1";
        int amqpPort = 5672;
        String queue = "bench.orders";
        double rate = 200;
        double seconds = 30;
        List<Double> steps = new ArrayList<>();
        double stepSeconds = 10;
        double p99LimitMs = 50;
        double warmupSeconds = 3;
        String jdbcUrl = null;
        String jdbcUser = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> url = args[++i];
                case "--amqp-host" -> amqpHost = args[++i];
                case "--amqp-port" -> amqpPort = Integer.parseInt(args[++i]);
                case "--queue" -> queue = args[++i];
                case "--rate" -> rate = Double.parseDouble(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--steps" -> {
                    for (String s : args[++i].split("[, ]+")) {
                        if (!s.isBlank()) {
                            steps.add(Double.parseDouble(s));
                        }
                    }
                }
                case "--step-seconds" -> stepSeconds = Double.parseDouble(args[++i]);
                case "--p99-limit-ms" -> p99LimitMs = Double.parseDouble(args[++i]);
                case "--warmup-seconds" -> warmupSeconds = Double.parseDouble(args[++i]);
                case "--max-in-flight" -> maxInFlight = Integer.parseInt(args[++i]);
                case "--drain-seconds" -> drainSeconds = Double.parseDouble(args[++i]);
                case "--message-wait-seconds" -> messageWaitSeconds = Double.parseDouble(args[++i]);
                case "--jdbc-url" -> jdbcUrl = args[++i];
                case "--jdbc-user" -> jdbcUser = args[++i];
                case "--backlog-sql" -> backlogSql = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        target(url);
        if (backlogSql != null) {
            backlogConnection = java.sql.DriverManager.getConnection(jdbcUrl, jdbcUser, "");
        }

        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(amqpHost);
        factory.setPort(amqpPort);
        factory.setUsername(System.getenv().getOrDefault("RABBIT_USER", "guest"));
        factory.setPassword(System.getenv().getOrDefault("RABBIT_PASSWORD", "guest"));
        try (Connection amqp = factory.newConnection("ordering-api-benchmark-consumer")) {
            Channel channel = amqp.createChannel();
            consume(channel, queue);
            for (int i = 0; i < 4; i++) {
                startWorker();
            }
            if (warmupSeconds > 0) {
                System.err.println("open loop: warm-up of this client (not reported)");
                runPhase(channel, queue, rate > 0 ? rate : steps.get(0), warmupSeconds);
            }

            if (seconds > 0 && rate > 0) {
                Stats fixed = runPhase(channel, queue, rate, seconds);
                System.out.printf(Locale.ROOT, "### Open loop: %s req/s for %s s%n%n", num(rate), num(seconds));
                System.out.println("Latency from each request's intended send time (fixed schedule, up to "
                        + maxInFlight + " requests in flight; later ones wait and the wait counts).");
                System.out.println();
                System.out.println("| latency | p50 | p99 | max | orders |");
                System.out.println("|---|---:|---:|---:|---:|");
                System.out.println(fixed.row("HTTP: intended send → answer", fixed.http));
                System.out.println(fixed.row("e2e: intended send → consumer", fixed.e2e));
                System.out.println(fixed.row("placed → consumer: `placedAt` → consumer", fixed.placed));
                System.out.println();
                System.out.println(fixed.counts());
                System.out.println();
            }

            if (!steps.isEmpty() && stepSeconds > 0) {
                List<Stats> tried = new ArrayList<>();
                Stats held = null;
                for (double stepRate : steps) {
                    Stats stats = runPhase(channel, queue, stepRate, stepSeconds);
                    tried.add(stats);
                    String failure = stats.failure(p99LimitMs);
                    System.err.printf(Locale.ROOT, "open loop: step %s req/s %s%n", num(stepRate),
                            failure == null ? "held" : "failed: " + failure);
                    if (failure != null) {
                        break;
                    }
                    held = stats;
                    Thread.sleep(1000);
                }
                System.out.printf(Locale.ROOT, "### Open loop: highest rate held (%s s per step)%n%n",
                        num(stepSeconds));
                System.out.printf(Locale.ROOT, "A step is held when HTTP and placed → consumer p99 stay below %s ms, "
                        + "every request is answered 201, no message is lost%s.%n%n", num(p99LimitMs),
                        backlogSql == null ? "" : " and what the service left undone when the step's schedule "
                                + "ended (its listener's and its relay's backlog) is at most one second of orders");
                System.out.println("| rate req/s | HTTP p50 | HTTP p99 | HTTP max | e2e p50 | e2e p99 | "
                        + "placed → consumer p99 | undone at the end | non-201 / I/O errors / not sent | lost | "
                        + "client CPU | held |");
                System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
                for (Stats s : tried) {
                    String failure = s.failure(p99LimitMs);
                    System.out.printf(Locale.ROOT,
                            "| %s | %s | %s | %s | %s | %s | %s | %s | %d / %d / %d | %d | %.0f%% | %s |%n",
                            num(s.rate), ms(s.http.p50), ms(s.http.p99), ms(s.http.max), ms(s.e2e.p50),
                            ms(s.e2e.p99), ms(s.placed.p99), s.undone < 0 ? "–" : String.valueOf(s.undone),
                            s.non201, s.ioErrors, s.notSent, s.lost,
                            s.clientCpuPercent, failure == null ? "yes" : "no: " + failure);
                }
                System.out.println();
                System.out.println("client CPU: this load generator's own CPU time (sender, connections and "
                        + "consumer) over the step, in % of one core.");
                System.out.println();
                if (held == null) {
                    System.out.printf(Locale.ROOT, "No rate held: the first step (%s req/s) already failed.%n%n",
                            num(steps.get(0)));
                } else {
                    System.out.printf(Locale.ROOT, "Highest rate held: **%s req/s**. HTTP p50 / p99 / max %s / %s / %s;"
                                    + " e2e %s / %s / %s; placed → consumer %s / %s / %s; lost %d, duplicates %d.%n%n",
                            num(held.rate), ms(held.http.p50), ms(held.http.p99), ms(held.http.max),
                            ms(held.e2e.p50), ms(held.e2e.p99), ms(held.e2e.max), ms(held.placed.p50),
                            ms(held.placed.p99), ms(held.placed.max), held.lost, held.duplicates);
                }
            }
        }
        System.out.flush();
        System.exit(0);
    }

    record Summary(long p50, long p99, long max, int count) {
        static Summary of(long[] values, int count) {
            long[] sorted = Arrays.copyOf(values, count);
            Arrays.sort(sorted);
            return new Summary(percentile(sorted, 0.50), percentile(sorted, 0.99),
                    count == 0 ? NONE : sorted[count - 1], count);
        }
    }

    /** A phase's figures. */
    record Stats(double rate, int sent, int ok, int non201, int ioErrors, int notSent, int lost, long duplicates,
                 int otherMessages, int connections, double clientCpuPercent, Summary http, Summary e2e,
                 Summary placed, long undone) {

        String row(String name, Summary s) {
            return String.format(Locale.ROOT, "| %s | %s | %s | %s | %d |", name, ms(s.p50), ms(s.p99), ms(s.max),
                    s.count);
        }

        String counts() {
            return String.format(Locale.ROOT, "Sent %d, answered 201: %d, non-201: %d, I/O errors: %d, not sent: %d,"
                            + " **lost: %d**, duplicates: %d, other messages: %d; connections open: %d, this client's"
                            + " CPU: %.0f%% of one core.",
                    sent, ok, non201, ioErrors, notSent, lost, duplicates, otherMessages, connections,
                    clientCpuPercent);
        }

        /** Why this phase fails the step search, or null when it held. */
        String failure(double p99LimitMs) {
            List<String> reasons = new ArrayList<>();
            if (http.p99 >= p99LimitMs * 1e6) {
                reasons.add("p99 " + ms(http.p99));
            }
            if (placed.p99 != NONE && placed.p99 >= p99LimitMs * 1e6) {
                reasons.add("placed → consumer p99 " + ms(placed.p99));
            }
            if (undone > rate) {
                reasons.add(undone + " left undone at the step's end (more than 1 s of orders)");
            }
            if (non201 > 0) {
                reasons.add(non201 + " non-201");
            }
            if (ioErrors > 0) {
                reasons.add(ioErrors + " I/O errors");
            }
            if (notSent > 0) {
                reasons.add(notSent + " not sent");
            }
            if (lost > 0) {
                reasons.add(lost + " lost");
            }
            return reasons.isEmpty() ? null : String.join(", ", reasons);
        }
    }

    /**
     * Empties the queue and forgets the receipts and message ids seen so far, after waiting settleMillis for
     * deliveries already on their way; the duplicate count to measure from.
     */
    static long forgetMessages(Channel channel, String queue, long settleMillis) throws Exception {
        channel.queuePurge(queue);
        if (settleMillis > 0) {
            Thread.sleep(settleMillis);
        }
        RECEIPTS.clear();
        MESSAGE_IDS.clear();
        return DUPLICATES.get();
    }

    static Stats runPhase(Channel channel, String queue, double rate, double seconds) throws Exception {
        long duplicatesBefore = forgetMessages(channel, queue, 200);
        int n = (int) Math.round(rate * seconds);
        long cpuBefore = processCpuNanos();
        Phase phase = new Phase(rate, n, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20));
        System.err.printf(Locale.ROOT, "open loop: %s req/s for %s s (%d requests)%n", num(rate), num(seconds), n);

        for (int i = 0; i < n; i++) {
            long due = phase.intended(i);
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            TICKETS.add(new Ticket(phase, i));
            if (IDLE_WORKERS.get() <= 0 && WORKERS.get() < maxInFlight) {
                startWorker();
            }
        }
        long scheduleEnd = System.nanoTime();
        long undone = countUndone();

        // requests not started within drain-seconds of the schedule's end are given up: "not sent"
        long drainDeadline = scheduleEnd + (long) (drainSeconds * 1e9);
        while (phase.completed.get() < n && System.nanoTime() - drainDeadline < 0) {
            Thread.sleep(5);
        }
        List<Ticket> unsent = new ArrayList<>();
        TICKETS.drainTo(unsent);
        long now = System.nanoTime();
        for (Ticket ticket : unsent) {
            ticket.phase().record(ticket.index(), now, NOT_SENT, null);
        }
        long answerDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SOCKET_TIMEOUT_MS + 5_000);
        while (phase.completed.get() < n && System.nanoTime() - answerDeadline < 0) {
            Thread.sleep(5);
        }
        if (phase.completed.get() < n) {
            throw new IllegalStateException((n - phase.completed.get()) + " requests never finished");
        }

        double clientCpuPercent = 100.0 * (processCpuNanos() - cpuBefore) / (System.nanoTime() - phase.start);

        // wait for the messages of every order answered 201
        List<String> due = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (phase.status[i] == 201 && phase.orderId[i] != null) {
                due.add(phase.orderId[i]);
            }
        }
        long messageDeadline = System.nanoTime() + (long) (messageWaitSeconds * 1e9);
        while (true) {
            due.removeIf(RECEIPTS::containsKey);
            if (due.isEmpty() || System.nanoTime() - messageDeadline >= 0) {
                break;
            }
            Thread.sleep(20);
        }

        long[] http = new long[n];
        long[] e2e = new long[n];
        long[] placed = new long[n];
        int e2eCount = 0;
        int placedCount = 0;
        int ok = 0;
        int non201 = 0;
        int ioErrors = 0;
        int notSent = 0;
        int lost = 0;
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < n; i++) {
            long intended = phase.intended(i);
            http[i] = phase.done[i] - intended;
            int code = phase.status[i];
            if (code == 201) {
                ok++;
                String id = phase.orderId[i];
                Receipt receipt = id == null ? null : RECEIPTS.get(id);
                if (id != null) {
                    ids.add(id);
                }
                if (receipt == null) {
                    lost++;
                } else {
                    e2e[e2eCount++] = receipt.nanos() - intended;
                    if (phase.placedAtMicros[i] != Long.MIN_VALUE) {
                        placed[placedCount++] = (receipt.wallMicros() - phase.placedAtMicros[i]) * 1_000L;
                    }
                }
            } else if (code == IO_ERROR) {
                ioErrors++;
            } else if (code == NOT_SENT) {
                notSent++;
            } else {
                non201++;
            }
        }
        int other = 0;
        for (String key : RECEIPTS.keySet()) {
            if (!ids.contains(key)) {
                other++;
            }
        }
        Stats stats = new Stats(rate, n, ok, non201, ioErrors, notSent, lost, DUPLICATES.get() - duplicatesBefore,
                other, WORKERS.get(), clientCpuPercent, Summary.of(http, n), Summary.of(e2e, e2eCount),
                Summary.of(placed, placedCount), undone);
        System.err.printf(Locale.ROOT, "open loop: %s req/s: HTTP p50 %s p99 %s max %s, e2e p99 %s, 201 %d, "
                        + "non-201 %d, I/O errors %d, not sent %d, lost %d, duplicates %d, connections %d, "
                        + "client CPU %.0f%% of a core%n",
                num(rate), ms(stats.http.p50), ms(stats.http.p99), ms(stats.http.max), ms(stats.e2e.p99), ok, non201,
                ioErrors, notSent, lost, stats.duplicates, stats.connections, clientCpuPercent);
        return stats;
    }

    /**
     * Consumes {@code queue} (auto-ack), noting for every message its receive time by {@code correlation_id} (the
     * order id) and counting a {@code message_id} seen twice as a duplicate.
     */
    static void consume(Channel channel, String queue) throws IOException {
        channel.basicConsume(queue, true, new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties,
                                       byte[] payload) {
                long nanos = System.nanoTime();
                Instant now = Instant.now();
                Receipt receipt = new Receipt(nanos, now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000);
                String messageId = properties.getMessageId();
                if (messageId != null && !MESSAGE_IDS.add(messageId)) {
                    DUPLICATES.incrementAndGet();
                }
                String correlationId = properties.getCorrelationId();
                if (correlationId != null) {
                    RECEIPTS.putIfAbsent(correlationId, receipt);
                }
            }
        });
    }

    /** The service's deferred work by {@code --backlog-sql} now, or -1 when not counted. */
    static long countUndone() throws java.sql.SQLException {
        if (backlogConnection == null) {
            return -1;
        }
        try (var statement = backlogConnection.createStatement(); var rows = statement.executeQuery(backlogSql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** CPU time of this whole process (sender, connections and consumer). */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static void startWorker() {
        WORKERS.incrementAndGet();
        Thread thread = new Thread(null, new Worker(), "http-" + WORKERS.get(), 256 * 1024);
        thread.setDaemon(true);
        thread.start();
    }

    /** Thrown when a reused connection was closed before any byte of an answer: nothing was processed. */
    static final class NoAnswer extends IOException {
        NoAnswer() {
            super("connection closed before an answer");
        }
    }

    /** One keep-alive connection, one request at a time. */
    static final class Worker implements Runnable {
        Socket socket;
        InputStream in;
        OutputStream out;
        long lastUsed;

        @Override
        public void run() {
            while (true) {
                Ticket ticket;
                IDLE_WORKERS.incrementAndGet();
                try {
                    ticket = TICKETS.take();
                } catch (InterruptedException e) {
                    return;
                } finally {
                    IDLE_WORKERS.decrementAndGet();
                }
                execute(ticket.phase(), ticket.index());
            }
        }

        void execute(Phase phase, int i) {
            for (int attempt = 0; ; attempt++) {
                boolean reused = false;
                try {
                    if (socket != null && System.nanoTime() - lastUsed > IDLE_REOPEN_NS) {
                        close();
                    }
                    if (socket == null) {
                        open();
                    } else {
                        reused = true;
                    }
                    out.write(request);
                    out.flush();
                    String statusLine = readLine(in);
                    if (statusLine == null) {
                        throw new NoAnswer();
                    }
                    int code = Integer.parseInt(statusLine.substring(9, 12));
                    long contentLength = -1;
                    boolean chunked = false;
                    boolean closeAfter = false;
                    String line;
                    while ((line = readLine(in)) != null && !line.isEmpty()) {
                        int colon = line.indexOf(':');
                        if (colon < 0) {
                            continue;
                        }
                        String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                        String value = line.substring(colon + 1).trim();
                        switch (name) {
                            case "content-length" -> contentLength = Long.parseLong(value);
                            case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                            case "connection" -> closeAfter = value.equalsIgnoreCase("close");
                            default -> {
                            }
                        }
                    }
                    byte[] body = chunked ? readChunked(in) : contentLength >= 0 ? in.readNBytes((int) contentLength)
                            : in.readAllBytes();
                    long done = System.nanoTime();
                    lastUsed = done;
                    if (closeAfter || (!chunked && contentLength < 0)) {
                        close();
                    }
                    phase.record(i, done, code, new String(body, StandardCharsets.UTF_8));
                    return;
                } catch (IOException | RuntimeException e) {
                    close();
                    boolean stale = reused && (e instanceof NoAnswer || e instanceof SocketException);
                    if (stale && attempt == 0) {
                        continue; // a keep-alive connection the server had closed: once more on a new one
                    }
                    if (ERRORS_PRINTED.incrementAndGet() <= 5) {
                        System.err.println("open loop: request failed: " + e);
                    }
                    phase.record(i, System.nanoTime(), IO_ERROR, null);
                    return;
                }
            }
        }

        void open() throws IOException {
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            s.setSoTimeout(SOCKET_TIMEOUT_MS);
            s.connect(new InetSocketAddress(host, port), 5_000);
            socket = s;
            in = new Input(s.getInputStream());
            out = new BufferedOutputStream(s.getOutputStream(), 2048);
            lastUsed = System.nanoTime();
        }

        void close() {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
            socket = null;
        }
    }

    /** A buffered input stream without BufferedInputStream's lock per byte (one thread reads each connection). */
    static final class Input extends InputStream {
        final InputStream source;
        final byte[] buffer = new byte[8192];
        int position;
        int limit;

        Input(InputStream source) {
            this.source = source;
        }

        private boolean fill() throws IOException {
            int n = source.read(buffer, 0, buffer.length);
            if (n <= 0) {
                return false;
            }
            position = 0;
            limit = n;
            return true;
        }

        @Override
        public int read() throws IOException {
            if (position == limit && !fill()) {
                return -1;
            }
            return buffer[position++] & 0xff;
        }

        @Override
        public int read(byte[] target, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            if (position == limit && !fill()) {
                return -1;
            }
            int n = Math.min(length, limit - position);
            System.arraycopy(buffer, position, target, offset, n);
            position += n;
            return n;
        }
    }

    /** A CRLF-terminated line as ISO-8859-1, without the terminator; null at the end of the stream. */
    static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder(64);
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                int length = line.length();
                if (length > 0 && line.charAt(length - 1) == '\r') {
                    line.setLength(length - 1);
                }
                return line.toString();
            }
            line.append((char) c);
        }
        if (line.length() == 0) {
            return null;
        }
        throw new EOFException("connection closed mid-line");
    }

    static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            if (sizeLine == null) {
                throw new EOFException("connection closed in a chunked body");
            }
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                String trailer;
                while ((trailer = readLine(in)) != null && !trailer.isEmpty()) {
                    // trailers are ignored
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            readLine(in);
        }
    }

    /** The string value of a top-level-looking {@code "name":"value"} pair; enough for the service's answer. */
    static String jsonString(String json, String name) {
        String key = "\"" + name + "\":\"";
        int at = json.indexOf(key);
        if (at < 0) {
            return null;
        }
        int from = at + key.length();
        int to = json.indexOf('"', from);
        return to < 0 ? null : json.substring(from, to);
    }

    /** Nearest rank: the smallest value with at least fraction p of all values at or below it; NONE when empty. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return NONE;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    static String ms(long nanos) {
        if (nanos == NONE) {
            return "–";
        }
        double ms = nanos / 1e6;
        return String.format(Locale.ROOT, ms < 10 ? "%.2f ms" : ms < 100 ? "%.1f ms" : "%.0f ms", ms);
    }

    static String num(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
