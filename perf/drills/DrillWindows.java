import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rolling drill's figures per window of time, with the JDK only. Reads the generator's latencies
 * ({@code DrillLoad --latencies}: scheduled time, first and final status, attempts, milliseconds to the answer, order
 * id), the audit consumer's deliveries ({@code receivedMillis messageId orderId type}) and the drill's events
 * ({@code epochMillis label}, e.g. {@code stop a}); prints one table row per {@code --window} seconds of the measured
 * load: requests, HTTP p50 / p99 (from the request's place in the schedule to its answer), non-2xx (first tries not
 * answered 2xx, whatever a retry got later), the order-to-consumer p99 (schedule to the first delivery of the order's
 * {@code order-placed} message), orders lost (answered 201, never delivered), duplicate deliveries (by receive time),
 * and the events in the window. Then {@code SUMMARY} with the steady state's p99 (windows before the first
 * {@code stop}), the worst window's during the roll (from the first {@code stop} to {@code rolled}), their ratio
 * and the roll's duration.
 *
 * <p>Run: {@code java DrillWindows.java --latencies l.txt --audit a.txt --events e.txt [--window 10]}
 */
public class DrillWindows {

    record Request(long scheduled, int first, int last, long millis, String orderId) {
    }

    public static void main(String[] args) throws Exception {
        Path latencies = null;
        Path audit = null;
        Path events = null;
        long window = 10_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--latencies" -> latencies = Path.of(args[++i]);
                case "--audit" -> audit = Path.of(args[++i]);
                case "--events" -> events = Path.of(args[++i]);
                case "--window" -> window = Long.parseLong(args[++i]) * 1000;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        List<Request> requests = new ArrayList<>();
        for (String line : Files.readAllLines(latencies)) {
            String[] f = line.trim().split(" ");
            if (f.length >= 6) {
                requests.add(new Request(Long.parseLong(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                        Long.parseLong(f[4]), f[5]));
            }
        }
        if (requests.isEmpty()) {
            throw new IllegalStateException("no requests in " + latencies);
        }
        Map<String, Long> firstDelivery = new HashMap<>();
        Set<String> seen = new HashSet<>();
        TreeMap<Long, Integer> duplicates = new TreeMap<>();
        for (String line : Files.readAllLines(audit)) {
            String[] f = line.trim().split(" ");
            if (f.length < 4) {
                continue;
            }
            long received = Long.parseLong(f[0]);
            if (!seen.add(f[1])) {
                duplicates.merge(received, 1, Integer::sum);
            }
            if (f[3].contains("placed")) {
                firstDelivery.merge(f[2], received, Math::min);
            }
        }
        TreeMap<Long, List<String>> marks = new TreeMap<>();
        for (String line : Files.readAllLines(events)) {
            int space = line.indexOf(' ');
            if (space > 0) {
                marks.computeIfAbsent(Long.parseLong(line.substring(0, space)), k -> new ArrayList<>())
                        .add(line.substring(space + 1));
            }
        }
        long start = requests.stream().mapToLong(Request::scheduled).min().orElseThrow();
        long end = requests.stream().mapToLong(Request::scheduled).max().orElseThrow();
        long firstStop = marks.entrySet().stream().filter(e -> e.getValue().stream().anyMatch(l -> l.startsWith("stop")))
                .mapToLong(Map.Entry::getKey).min().orElse(Long.MAX_VALUE);
        long rolled = marks.entrySet().stream().filter(e -> e.getValue().contains("rolled"))
                .mapToLong(Map.Entry::getKey).max().orElse(end);

        System.out.println("| window (s) | requests | HTTP p50 (ms) | HTTP p99 (ms) | non-2xx | order-to-consumer p99 (ms) "
                + "| lost | duplicates | events |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---|");
        List<Long> steady = new ArrayList<>();
        long worst = -1;
        long worstAt = 0;
        int nonOk = 0;
        int lostTotal = 0;
        for (long from = start; from <= end; from += window) {
            long to = from + window;
            List<Long> http = new ArrayList<>();
            List<Long> toConsumer = new ArrayList<>();
            int failed = 0;
            int lost = 0;
            for (Request r : requests) {
                if (r.scheduled() < from || r.scheduled() >= to) {
                    continue;
                }
                http.add(r.millis());
                if (r.first() < 200 || r.first() > 299) {
                    failed++;
                }
                if (r.last() == 201) {
                    Long delivered = firstDelivery.get(r.orderId());
                    if (delivered == null) {
                        lost++;
                    } else {
                        toConsumer.add(delivered - r.scheduled());
                    }
                }
            }
            nonOk += failed;
            lostTotal += lost;
            int dups = duplicates.subMap(from, to).values().stream().mapToInt(Integer::intValue).sum();
            List<String> labels = new ArrayList<>();
            marks.subMap(from, to).forEach((at, l) -> l.forEach(label -> labels.add(
                    String.format(Locale.ROOT, "%s at %.0f s", label, (at - start) / 1000.0))));
            long p99 = percentile(http, 0.99);
            if (to <= firstStop) {
                steady.add(p99);
            } else if (from < rolled) {
                if (p99 > worst) {
                    worst = p99;
                    worstAt = from;
                }
            }
            System.out.printf(Locale.ROOT, "| %d–%d | %d | %d | %d | %d | %d | %d | %d | %s |%n", (from - start) / 1000,
                    (to - start) / 1000, http.size(), percentile(http, 0.5), p99, failed,
                    percentile(toConsumer, 0.99), lost, dups, String.join("; ", labels));
        }
        // the steady state's p99: the median of its windows' p99
        long steadyP99 = steady.isEmpty() ? -1 : percentile(steady, 0.5);
        String roll = firstStop == Long.MAX_VALUE ? "n/a"
                : String.format(Locale.ROOT, "%.0f", (rolled - firstStop) / 1000.0);
        System.out.printf(Locale.ROOT, "SUMMARY requests=%d non_2xx=%d lost=%d steady_p99_ms=%d worst_window_p99_ms=%d "
                + "worst_window_at_s=%d ratio=%.2f roll_seconds=%s%n", requests.size(), nonOk, lostTotal, steadyP99,
                worst, (worstAt - start) / 1000, steadyP99 > 0 ? (double) worst / steadyP99 : 0.0, roll);
    }

    static long percentile(List<Long> values, double q) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(q * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
