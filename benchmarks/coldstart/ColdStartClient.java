import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The cold-start benchmark's load generator: one JVM for the whole run, warmed up once, then driving every fresh
 * instance of the service from the moment its readiness answers. It reuses the open-loop machinery of
 * {@code benchmarks/api/OpenLoop.java} (compiled beside it: its sender, connection threads, request bytes and
 * receipts) and adds what OpenLoop lacks: readiness polling and a report per time window.
 *
 * <p>Commands, one per line on stdin; one answer line on stdout ({@code ok ...} or {@code fail ...}), progress on
 * stderr:
 *
 * <ul>
 *   <li>{@code warmup BASE_URL SECONDS RATE}: waits for BASE_URL's readiness, then runs one OpenLoop phase
 *       against it (not reported): this JVM's own warm-up, so that the measured instances meet a warm client.</li>
 *   <li>{@code measure BASE_URL T0_EPOCH_MS OUT_FILE [WINDOW_SECONDS [WARMUP_SECONDS WARMUP_RATE]]}: polls
 *       {@code BASE_URL/actuator/health/readiness} every {@code --poll-ms} (20) from the moment of the command; at
 *       the first 200 starts {@code --rate} orders/s for {@code --seconds} on an open-loop schedule (latency from
 *       each request's intended send time), then writes one line per window ({@code --window-seconds} unless
 *       given) of intended send times to OUT_FILE (times in ms since T0_EPOCH_MS, the service process's start).
 *       With WARMUP_SECONDS, an unreported OpenLoop phase at WARMUP_RATE runs first, from readiness on: what a
 *       warm-up before readiness could give at best, its time counted.
 *       Answers {@code ok ready_ms=R held_ms=H} (H: the start of the
 *       first window from which every later window holds, {@code -1} if none does).</li>
 *   <li>{@code steps BASE_URL OUT_FILE STEP_SECONDS RATE,RATE,...}: OpenLoop's step search against a running
 *       instance, one line per step to OUT_FILE ({@code rate http_p50_ms http_p99_ms placed_p99_ms undone held}),
 *       stopping after the first step that fails; with {@code --jdbc-url}, {@code --jdbc-user} and
 *       {@code --backlog-sql} a step also fails when more than a second of orders is left undone at its end, as in
 *       OpenLoop. Answers {@code ok held=RATE} (0: none held).</li>
 *   <li>{@code quit}.</li>
 * </ul>
 *
 * <p>A window holds when its HTTP p99 and its placed-to-consumer p99 ({@code placedAt} of the 201 answer to the
 * consumer's receipt) are below {@code --p99-limit-ms} (50), and it has no error (non-201, I/O error, not sent) and
 * nothing lost (answered 201, message never received).
 *
 * <p>Run: {@code javac -cp AMQP_CP -d classes benchmarks/api/OpenLoop.java ColdStartClient.java} then
 * {@code java -cp classes:AMQP_CP ColdStartClient --queue bench.coldstart --rate 200 --seconds 120}.
 */
public class ColdStartClient {

    static double rate = 200;
    static double seconds = 120;
    static double windowSeconds = 10;
    static double p99LimitMs = 50;
    static long pollMs = 20;
    static double readyTimeoutSeconds = 180;
    static String queue = "bench.coldstart";

    public static void main(String[] args) throws Exception {
        String amqpHost = "127.0.0.1";
        int amqpPort = 5672;
        String jdbcUrl = null;
        String jdbcUser = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--amqp-host" -> amqpHost = args[++i];
                case "--amqp-port" -> amqpPort = Integer.parseInt(args[++i]);
                case "--queue" -> queue = args[++i];
                case "--rate" -> rate = Double.parseDouble(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--window-seconds" -> windowSeconds = Double.parseDouble(args[++i]);
                case "--p99-limit-ms" -> p99LimitMs = Double.parseDouble(args[++i]);
                case "--poll-ms" -> pollMs = Long.parseLong(args[++i]);
                case "--ready-timeout-seconds" -> readyTimeoutSeconds = Double.parseDouble(args[++i]);
                case "--jdbc-url" -> jdbcUrl = args[++i];
                case "--jdbc-user" -> jdbcUser = args[++i];
                case "--backlog-sql" -> OpenLoop.backlogSql = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (OpenLoop.backlogSql != null) {
            OpenLoop.backlogConnection = java.sql.DriverManager.getConnection(jdbcUrl, jdbcUser, "");
        }
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(amqpHost);
        factory.setPort(amqpPort);
        factory.setUsername(System.getenv().getOrDefault("RABBIT_USER", "guest"));
        factory.setPassword(System.getenv().getOrDefault("RABBIT_PASSWORD", "guest"));
        PrintWriter answer = new PrintWriter(System.out, true);
        try (Connection amqp = factory.newConnection("ordering-coldstart-benchmark-consumer")) {
            Channel channel = amqp.createChannel();
            OpenLoop.consume(channel, queue);
            for (int i = 0; i < 4; i++) {
                OpenLoop.startWorker();
            }
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = commands.readLine()) != null) {
                String[] words = line.trim().split("\\s+");
                try {
                    switch (words[0]) {
                        case "warmup" -> {
                            target(words[1]);
                            long ready = awaitReady(words[1]);
                            if (ready < 0) {
                                answer.println("fail readiness never answered 200");
                                continue;
                            }
                            OpenLoop.Stats stats = OpenLoop.runPhase(channel, queue,
                                    Double.parseDouble(words[3]), Double.parseDouble(words[2]));
                            answer.printf(Locale.ROOT, "ok warm-up: HTTP p99 %s, placed-to-consumer p99 %s%n",
                                    OpenLoop.ms(stats.http().p99()), OpenLoop.ms(stats.placed().p99()));
                        }
                        case "measure" -> answer.println(measure(channel, words[1], Long.parseLong(words[2]),
                                Path.of(words[3]), words.length > 4 ? Double.parseDouble(words[4]) : windowSeconds,
                                words.length > 6 ? Double.parseDouble(words[5]) : 0,
                                words.length > 6 ? Double.parseDouble(words[6]) : 0));
                        case "steps" -> answer.println(steps(channel, words[1], Path.of(words[2]),
                                Double.parseDouble(words[3]), words[4]));
                        case "quit" -> {
                            answer.println("ok bye");
                            return;
                        }
                        default -> answer.println("fail unknown command " + words[0]);
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                    answer.println("fail " + e);
                }
            }
        }
    }

    /** Points OpenLoop's connection threads at BASE_URL/orders, with its request bytes. */
    static void target(String baseUrl) throws IOException {
        OpenLoop.target(baseUrl + "/orders");
    }

    /** Polls the readiness probe until it answers 200; the wall-clock ms of that answer, or -1 at the timeout. */
    static long awaitReady(String baseUrl) throws InterruptedException {
        URI uri = URI.create(baseUrl);
        byte[] get = ("GET /actuator/health/readiness HTTP/1.1\r\nHost: " + uri.getHost() + ':' + uri.getPort()
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        long deadline = System.nanoTime() + (long) (readyTimeoutSeconds * 1e9);
        while (System.nanoTime() - deadline < 0) {
            long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pollMs);
            try (Socket socket = new Socket()) {
                socket.setSoTimeout(2_000);
                socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 1_000);
                OutputStream out = socket.getOutputStream();
                out.write(get);
                out.flush();
                InputStream in = socket.getInputStream();
                byte[] status = in.readNBytes(12);
                if (status.length == 12 && new String(status, 9, 3, StandardCharsets.ISO_8859_1).equals("200")) {
                    return System.currentTimeMillis();
                }
            } catch (IOException e) {
                // not listening yet, or not answering: poll again
            }
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
        return -1;
    }

    static String measure(Channel channel, String baseUrl, long t0EpochMs, Path out, double windowSeconds,
            double warmupSeconds, double warmupRate) throws Exception {
        target(baseUrl);
        long duplicatesBefore = OpenLoop.forgetMessages(channel, queue, 0);
        long readyEpochMs = awaitReady(baseUrl);
        if (readyEpochMs < 0) {
            return "fail readiness never answered 200 within " + OpenLoop.num(readyTimeoutSeconds) + " s";
        }
        if (warmupSeconds > 0) {
            OpenLoop.Stats stats = OpenLoop.runPhase(channel, queue, warmupRate, warmupSeconds);
            System.err.printf(Locale.ROOT, "coldstart: warm-up done %d ms after the process start: HTTP p99 %s,"
                    + " placed-to-consumer p99 %s%n", System.currentTimeMillis() - t0EpochMs,
                    OpenLoop.ms(stats.http().p99()), OpenLoop.ms(stats.placed().p99()));
            duplicatesBefore = OpenLoop.forgetMessages(channel, queue, 0);
        }
        int n = (int) Math.round(rate * seconds);
        long startNanos = System.nanoTime();
        long startEpochMicros = currentEpochMicros();
        OpenLoop.Phase phase = new OpenLoop.Phase(rate, n, startNanos);
        System.err.printf(Locale.ROOT, "coldstart: ready %d ms after the process start; %s orders/s for %s s%n",
                readyEpochMs - t0EpochMs, OpenLoop.num(rate), OpenLoop.num(seconds));
        for (int i = 0; i < n; i++) {
            long due = phase.intended(i);
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            OpenLoop.TICKETS.add(new OpenLoop.Ticket(phase, i));
            if (OpenLoop.IDLE_WORKERS.get() <= 0 && OpenLoop.WORKERS.get() < OpenLoop.maxInFlight) {
                OpenLoop.startWorker();
            }
        }
        // as OpenLoop: requests not started within drain-seconds of the schedule's end count as not sent
        long drainDeadline = System.nanoTime() + (long) (OpenLoop.drainSeconds * 1e9);
        while (phase.completed.get() < n && System.nanoTime() - drainDeadline < 0) {
            Thread.sleep(5);
        }
        List<OpenLoop.Ticket> unsent = new ArrayList<>();
        OpenLoop.TICKETS.drainTo(unsent);
        long now = System.nanoTime();
        for (OpenLoop.Ticket ticket : unsent) {
            ticket.phase().record(ticket.index(), now, OpenLoop.NOT_SENT, null);
        }
        long answerDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OpenLoop.SOCKET_TIMEOUT_MS + 5_000);
        while (phase.completed.get() < n && System.nanoTime() - answerDeadline < 0) {
            Thread.sleep(5);
        }
        if (phase.completed.get() < n) {
            return "fail " + (n - phase.completed.get()) + " requests never finished";
        }
        long messageDeadline = System.nanoTime() + (long) (OpenLoop.messageWaitSeconds * 1e9);
        while (System.nanoTime() - messageDeadline < 0) {
            boolean all = true;
            for (int i = 0; i < n && all; i++) {
                all = phase.status[i] != 201 || phase.orderId[i] == null
                        || OpenLoop.RECEIPTS.containsKey(phase.orderId[i]);
            }
            if (all) {
                break;
            }
            Thread.sleep(20);
        }

        int perWindow = (int) Math.round(rate * windowSeconds);
        int windows = (n + perWindow - 1) / perWindow;
        long loadStartMs = startEpochMicros / 1000 - t0EpochMs;
        List<String> lines = new ArrayList<>();
        lines.add("# ready_ms=" + (readyEpochMs - t0EpochMs) + " load_start_ms=" + loadStartMs + " rate=" + rate
                + " window_s=" + windowSeconds + " duplicates=" + (OpenLoop.DUPLICATES.get() - duplicatesBefore)
                + " warmup_s=" + OpenLoop.num(warmupSeconds));
        lines.add("# window from_ms to_ms from_epoch_ms to_epoch_ms orders http_p50_ms http_p99_ms http_max_ms"
                + " placed_p99_ms e2e_p99_ms non201 io_errors not_sent lost holds non201_codes");
        boolean[] holds = new boolean[windows];
        String[] rows = new String[windows];
        String[] codeLists = new String[windows];
        for (int w = 0; w < windows; w++) {
            int from = w * perWindow;
            int to = Math.min(n, from + perWindow);
            long[] http = new long[to - from];
            long[] placed = new long[to - from];
            long[] e2e = new long[to - from];
            int placedCount = 0;
            int e2eCount = 0;
            int non201 = 0;
            int ioErrors = 0;
            int notSent = 0;
            int lost = 0;
            java.util.TreeMap<Integer, Integer> codes = new java.util.TreeMap<>();
            for (int i = from; i < to; i++) {
                long intended = phase.intended(i);
                http[i - from] = phase.done[i] - intended;
                int code = phase.status[i];
                if (code == 201) {
                    OpenLoop.Receipt receipt = phase.orderId[i] == null ? null
                            : OpenLoop.RECEIPTS.get(phase.orderId[i]);
                    if (receipt == null) {
                        lost++;
                    } else {
                        e2e[e2eCount++] = receipt.nanos() - intended;
                        if (phase.placedAtMicros[i] != Long.MIN_VALUE) {
                            placed[placedCount++] = (receipt.wallMicros() - phase.placedAtMicros[i]) * 1_000L;
                        }
                    }
                } else if (code == OpenLoop.IO_ERROR) {
                    ioErrors++;
                } else if (code == OpenLoop.NOT_SENT) {
                    notSent++;
                } else {
                    non201++;
                    codes.merge(code, 1, Integer::sum);
                }
            }
            Arrays.sort(http);
            long[] placedSorted = Arrays.copyOf(placed, placedCount);
            Arrays.sort(placedSorted);
            long[] e2eSorted = Arrays.copyOf(e2e, e2eCount);
            Arrays.sort(e2eSorted);
            long httpP99 = OpenLoop.percentile(http, 0.99);
            long placedP99 = OpenLoop.percentile(placedSorted, 0.99);
            double limit = p99LimitMs * 1e6;
            StringBuilder codeList = new StringBuilder();
            codes.forEach((code, count) -> codeList.append(codeList.length() == 0 ? "" : ",").append(code)
                    .append('x').append(count));
            codeLists[w] = codeList.length() == 0 ? "-" : codeList.toString();
            holds[w] = httpP99 < limit && placedP99 != OpenLoop.NONE && placedP99 < limit
                    && non201 + ioErrors + notSent + lost == 0;
            long fromMs = loadStartMs + Math.round(w * windowSeconds * 1000);
            long toMs = loadStartMs + Math.round((w + 1) * windowSeconds * 1000);
            rows[w] = String.format(Locale.ROOT, "%d %d %d %d %d %d %.2f %.2f %.2f %.2f %.2f %d %d %d %d", w + 1,
                    fromMs, toMs, fromMs + t0EpochMs, toMs + t0EpochMs, to - from,
                    OpenLoop.percentile(http, 0.50) / 1e6, httpP99 / 1e6, http[http.length - 1] / 1e6,
                    msOrNan(placedP99), msOrNan(OpenLoop.percentile(e2eSorted, 0.99)), non201, ioErrors, notSent,
                    lost);
        }
        int heldFrom = -1;
        for (int w = windows - 1; w >= 0 && holds[w]; w--) {
            heldFrom = w;
        }
        for (int w = 0; w < windows; w++) {
            lines.add(rows[w] + (holds[w] ? " 1 " : " 0 ") + codeLists[w]);
        }
        long heldMs = heldFrom < 0 ? -1 : loadStartMs + Math.round(heldFrom * windowSeconds * 1000);
        Files.write(out, lines);
        return "ok ready_ms=" + (readyEpochMs - t0EpochMs) + " held_ms=" + heldMs;
    }

    static String steps(Channel channel, String baseUrl, Path out, double stepSeconds, String rates)
            throws Exception {
        target(baseUrl);
        List<String> lines = new ArrayList<>(List.of("# rate http_p50_ms http_p99_ms placed_p99_ms undone held"));
        double held = 0;
        for (String word : rates.split(",")) {
            double stepRate = Double.parseDouble(word);
            OpenLoop.Stats stats = OpenLoop.runPhase(channel, queue, stepRate, stepSeconds);
            boolean holds = stats.failure(p99LimitMs) == null;
            lines.add(String.format(Locale.ROOT, "%s %.2f %.2f %.2f %d %d", OpenLoop.num(stepRate),
                    stats.http().p50() / 1e6, stats.http().p99() / 1e6, msOrNan(stats.placed().p99()),
                    stats.undone(), holds ? 1 : 0));
            if (!holds) {
                break;
            }
            held = stepRate;
        }
        Files.write(out, lines);
        return "ok held=" + OpenLoop.num(held);
    }

    static double msOrNan(long nanos) {
        return nanos == OpenLoop.NONE ? Double.NaN : nanos / 1e6;
    }

    static long currentEpochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
