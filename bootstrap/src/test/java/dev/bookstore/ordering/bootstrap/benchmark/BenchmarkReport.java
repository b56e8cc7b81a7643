package dev.bookstore.ordering.bootstrap.benchmark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Collects the timed drains and prints the table: rates per round, medians, ratios against the targets. */
final class BenchmarkReport {

    /** One timed drain; {@code server} is what it cost the database server, where that was measured, else null. */
    record Run(String relay, int messages, long elapsedNanos, long cpuNanos, Phases phases, ServerCost.Spent server) {

        double rate() {
            return messages / (elapsedNanos / 1e9);
        }
    }

    /**
     * A ratio to print: {@code numerator}'s median rate over {@code denominator}'s, against the target the issue
     * sets ({@code atLeast}), or only reported where {@code atLeast} is NaN ({@link #reported}).
     */
    record Target(String label, String numerator, String denominator, double atLeast) {

        static Target reported(String label, String numerator, String denominator) {
            return new Target(label, numerator, denominator, Double.NaN);
        }
    }

    private final Map<String, List<Run>> runs = new LinkedHashMap<>();

    BenchmarkReport(List<String> relays) {
        relays.forEach(relay -> runs.put(relay, new ArrayList<>()));
    }

    void add(Run run) {
        runs.get(run.relay()).add(run);
    }

    String render(String header, List<Target> targets) {
        StringBuilder out = new StringBuilder(2_000).append('\n').append(header).append("\n\n");
        int rounds = runs.values().iterator().next().size();
        out.append(String.format("%-32s", "msg/s"));
        for (int round = 1; round <= rounds; round++) {
            out.append(String.format("%10s", "round " + round));
        }
        out.append(String.format("  |%10s%n", "median"));
        runs.forEach((relay, list) -> {
            out.append(String.format("%-32s", relay));
            list.forEach(run -> out.append(String.format("%,10.0f", run.rate())));
            out.append(String.format("  |%,10.0f%n", medianRate(relay)));
        });

        out.append('\n');
        for (Target target : targets) {
            // the ratio of the medians decides; the rounds' own ratios (neighbours in time) show how noisy it is
            double ratio = medianRate(target.numerator()) / medianRate(target.denominator());
            List<Run> numerators = runs.get(target.numerator());
            List<Run> denominators = runs.get(target.denominator());
            double[] perRound = new double[rounds];
            StringBuilder listed = new StringBuilder();
            for (int round = 0; round < rounds; round++) {
                perRound[round] = numerators.get(round).rate() / denominators.get(round).rate();
                listed.append(String.format(" %.2f", perRound[round]));
            }
            String verdict = Double.isNaN(target.atLeast()) ? "no target       " : String.format(
                    "target >= %.2f  %-4s", target.atLeast(), ratio >= target.atLeast() ? "PASS" : "MISS");
            out.append(String.format("%-20s %5.2f  %s  (per round:%s; their median %.2f)%n",
                    target.label(), ratio, verdict, listed, median(perRound)));
        }

        out.append("\nWhere the median drain of each relay spent its time, ms (CPU: this JVM, all threads):\n");
        out.append(String.format("%-32s%9s%9s%10s%10s%9s%9s%13s%n", "", "total", "claim", "publish", "confirms",
                "mark", "other", "CPU us/msg"));
        runs.forEach((relay, list) -> {
            Run run = medianRun(relay);
            Phases phases = run.phases();
            out.append(String.format("%-32s%,9.0f%,9.0f%,10.0f%10s%,9.0f%,9.0f%13.1f%n", relay,
                    millis(run.elapsedNanos()), millis(phases.claimNanos), millis(phases.publishNanos),
                    phases.confirmNanos < 0 ? "(in pub.)" : String.format("%,.0f", millis(phases.confirmNanos)),
                    millis(phases.markNanos), millis(phases.otherNanos(run.elapsedNanos())),
                    run.cpuNanos() / 1e3 / run.messages()));
        });
        return out.toString();
    }

    /**
     * Per relay, what one message cost, medians over its rounds: the statements sent to the outbox's database
     * (BEGIN and COMMIT included), the WAL written, this JVM's CPU and the database server's; then the statements
     * of its median drain by calls. Only for runs that measured the server.
     */
    String renderServerCosts() {
        StringBuilder out = new StringBuilder(2_000).append(String.format(
                "%nPer message, medians of the rounds:%n%-32s%12s%12s%13s%20s%n", "", "statements", "WAL bytes",
                "JVM CPU us", "PostgreSQL CPU us"));
        runs.forEach((relay, list) -> out.append(String.format("%-32s%12.4f%,12.1f%13.1f%20.1f%n", relay,
                perMessage(list, run -> run.server().statements()), perMessage(list, run -> run.server().walBytes()),
                perMessage(list, run -> run.cpuNanos() / 1e3),
                perMessage(list, run -> run.server().cpuNanos() / 1e3))));
        runs.keySet().forEach(relay -> {
            Run run = medianRun(relay);
            out.append(String.format("%nStatements of the median drain of %s (%,d messages), by calls:%n", relay,
                    run.messages()));
            run.server().topStatements().forEach(row -> out.append(
                    String.format("%,10d  %s%n", ((Number) row.get("calls")).longValue(), row.get("query"))));
        });
        return out.toString();
    }

    private static double perMessage(List<Run> runs, ToDoubleFunction<Run> total) {
        return median(runs.stream().mapToDouble(run -> total.applyAsDouble(run) / run.messages()).toArray());
    }

    double medianRate(String relay) {
        return median(runs.get(relay).stream().mapToDouble(Run::rate).toArray());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private Run medianRun(String relay) {
        List<Run> sorted = new ArrayList<>(runs.get(relay));
        sorted.sort(Comparator.comparingDouble(Run::rate));
        return sorted.get((sorted.size() - 1) / 2);
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
