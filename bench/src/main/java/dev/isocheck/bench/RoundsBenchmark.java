package dev.isocheck.bench;

import dev.isocheck.CheckOptions;
import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.explain.Explanation;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.ValueTable;
import dev.isocheck.internal.rounds.RoundChecker;
import dev.isocheck.format.JsonlHistoryWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Checks a long generated history in rounds (issue 36): {@code chunks} serial runs of a workload,
 * one after another in time, each continuing the keys where the one before left them and holding
 * one injected anomaly on two keys of its own, fed to {@link RoundChecker} a run at a time in the
 * order transactions ended.
 * Prints the rate (transactions checked per second of checking, generation excluded), the
 * anomalies found and explained, the most transactions held at once, and the live heap after a
 * full collection every tenth round.
 *
 * <pre>{@code
 * java -Xmx2g -cp bench/target/isocheck-bench.jar dev.isocheck.bench.RoundsBenchmark \
 *     WORKLOAD CHUNKS CHUNK [LEVEL [ANOMALY,ANOMALY,... [TIMING]]]
 * }</pre>
 * e.g. {@code ycsb-dup 100 100000} (10 million); the anomalies cycle through lost-update,
 * write-skew, read-skew and stale-read by default ({@code none} for none); the level is
 * strict-serializable and the timing serial (each transaction alone in time) by default, or
 * {@code overlapping} (closed-loop sessions overlapping as under a real database).
 */
public final class RoundsBenchmark {

    private RoundsBenchmark() {
    }

    /** Runs the benchmark; arguments as in the class comment. */
    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: RoundsBenchmark WORKLOAD CHUNKS CHUNK [LEVEL [ANOMALY,... [TIMING]]]");
            System.exit(2);
        }
        Workloads.Kind kind = Workloads.Kind.fromName(args[0]);
        int chunks = Integer.parseInt(args[1]);
        int chunk = Integer.parseInt(args[2]);
        IsolationLevel level = args.length > 3 ? IsolationLevel.fromName(args[3]) : IsolationLevel.STRICT_SERIALIZABLE;
        InjectedAnomaly[] anomalies = args.length > 4
                ? Arrays.stream(args[4].split(",")).map(InjectedAnomaly::fromName).toArray(InjectedAnomaly[]::new)
                : new InjectedAnomaly[] {InjectedAnomaly.LOST_UPDATE, InjectedAnomaly.WRITE_SKEW, InjectedAnomaly.READ_SKEW,
                    InjectedAnomaly.STALE_READ};
        Timing timing = args.length > 5 ? Timing.fromName(args[5]) : Timing.SERIAL;
        String writeTo = System.getProperty("rounds.write");
        if (writeTo != null) {
            write(Path.of(writeTo), kind, chunks, chunk, anomalies, timing);
            return;
        }
        CheckOptions options = CheckOptions.defaults();
        // found, explained, and found involving a transaction that is not an injected anomaly's
        // (none should: every run is serial but for its anomaly)
        int[] found = new int[3];
        RoundChecker rounds = new RoundChecker(level, (h, l) -> Isocheck.check(h, l, options))
                .onViolation(round -> {
                    CheckResult result = round.result();
                    found[0]++;
                    if (result.anomaly().isPresent()
                            && !result.anomaly().get().transactions().stream().allMatch(id -> id.contains(":anomaly-"))) {
                        found[2]++;
                    }
                    if (result.explanation().isPresent() && !(result.explanation().get() instanceof Explanation.Unexplained)) {
                        found[1]++;
                    }
                    if (found[0] <= (Boolean.getBoolean("rounds.verbose") ? 100 : 3)) {
                        System.out.println("  found: " + result.anomaly().map(a -> a.type().shortName() + " "
                                + a.transactions()).orElse("?"));
                        if (Boolean.getBoolean("rounds.explain")) {
                            System.out.println(result.explanationText().orElse(""));
                        }
                    }
                });
        Workloads.Continuation from = null;
        long offset = 0;
        long checkingNanos = 0;
        long generatingNanos = 0;
        long injected = 0;
        List<String> heapAfterGc = new ArrayList<>();
        try (HeapSampler heap = new HeapSampler()) {
            long wall = System.nanoTime();
            for (int c = 0; c < chunks; c++) {
                long g = System.nanoTime();
                InjectedAnomaly anomaly = anomalies[c % anomalies.length];
                BenchHistory run = from == null ? Workloads.generate(kind, chunk, c, anomaly, timing)
                        : Workloads.generate(kind, chunk, c, anomaly, timing, from);
                injected += anomaly.violates(level) ? 1 : 0;
                History batch = renamed(run.history(), "c" + c + ":", offset, c == 0);
                from = continuation(run);
                long next = offset + 1;
                for (Transaction t : batch.transactions()) {
                    next = Math.max(next, t.endTime() + 1);
                }
                generatingNanos += System.nanoTime() - g;
                run = null;
                long r = System.nanoTime();
                // The next run starts after this one ended: its transactions all start after it.
                rounds.round(batch, next);
                checkingNanos += System.nanoTime() - r;
                offset = next + 1_000;
                if (Boolean.getBoolean("rounds.verbose")) {
                    System.out.println("  after run " + c + " (" + anomaly.cliName() + "): " + rounds.stats());
                }
                if ((c + 1) % 10 == 0 || c + 1 == chunks) {
                    System.gc();
                    heapAfterGc.add(String.format(Locale.ROOT, "%d:%.0f", c + 1, heap.used() / 1e6));
                }
            }
            long r = System.nanoTime();
            CheckResult result = rounds.finish();
            checkingNanos += System.nanoTime() - r;
            double wallS = (System.nanoTime() - wall) / 1e9;
            RoundChecker.Stats stats = rounds.stats();
            System.out.printf(Locale.ROOT, "%s (%s timing): %d runs x %d = %d transactions at %s in rounds: %s%s%n", kind,
                    timing.cliName(), chunks, chunk, stats.transactions(), level.cliName(),
                    result.verdict().getClass().getSimpleName(), result.caveats().isEmpty() ? ""
                            : " with caveats (" + result.caveats().size() + "): " + result.caveats().get(0));
            System.out.printf(Locale.ROOT, "  checking %.1f s (%.0f transactions/s), generating %.1f s, wall %.1f s%n",
                    checkingNanos / 1e9, stats.transactions() / (checkingNanos / 1e9), generatingNanos / 1e9, wallS);
            System.out.printf(Locale.ROOT, "  anomalies injected %d, violations found %d, explained %d, involving other"
                    + " transactions %d%n", injected, found[0], found[1], found[2]);
            System.out.printf(Locale.ROOT, "  rounds %d, most transactions held %d, stub operations %d, peak heap %.0f MB%n",
                    stats.rounds(), stats.peakHeld(), stats.stubOperations(), heap.peak() / 1e6);
            System.out.println("  live heap after a full GC (runs:MB): " + String.join(" ", heapAfterGc));
        }
    }

    /**
     * Writes the history the benchmark would check to {@code file} as JSON Lines instead
     * ({@code -Drounds.write=FILE}), for the {@code check --rounds} command: one initial-state line
     * (every run's anomaly keys included), then the runs' transactions in the order they ended.
     */
    static void write(Path file, Workloads.Kind kind, int chunks, int chunk, InjectedAnomaly[] anomalies, Timing timing) {
        Workloads.Continuation from = null;
        long offset = 0;
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int c = 0; c < chunks; c++) {
                InjectedAnomaly anomaly = anomalies[c % anomalies.length];
                BenchHistory run = from == null ? Workloads.generate(kind, chunk, c, anomaly, timing)
                        : Workloads.generate(kind, chunk, c, anomaly, timing, from);
                History batch = renamed(run.history(), "c" + c + ":", offset, c == 0);
                from = continuation(run);
                long next = offset + 1;
                for (Transaction t : batch.transactions()) {
                    next = Math.max(next, t.endTime() + 1);
                }
                offset = next + 1_000;
                StringWriter text = new StringWriter();
                new JsonlHistoryWriter().write(batch, text);
                String[] lines = text.toString().split("\n");
                for (String line : lines) {
                    if (line.startsWith("{\"init\"")) {
                        if (c == 0) {
                            out.write(initLine(line, chunks));
                            out.write('\n');
                        }
                    } else if (!line.isBlank()) {
                        out.write(line);
                        out.write('\n');
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first run's initial-state line, with every run's anomaly keys (which start at 0) added. */
    private static String initLine(String first, int chunks) {
        StringBuilder more = new StringBuilder();
        for (int c = 1; c < chunks; c++) {
            for (String key : new String[] {SerialRun.ANOMALY_X, SerialRun.ANOMALY_Y}) {
                more.append(",\"c").append(c).append(':').append(key).append("\":0");
            }
        }
        if (more.length() == 0) {
            return first;
        }
        int init = first.indexOf("\"init\":{") + "\"init\":{".length();
        boolean empty = first.charAt(init) == '}';
        return first.substring(0, init) + more.substring(1) + (empty ? "" : ",") + first.substring(init);
    }

    /** Where {@code run} left the keys, for the next run to start from. */
    static Workloads.Continuation continuation(BenchHistory run) {
        return new Workloads.Continuation(run.finalState(), run.nextValue());
    }

    private static final String ANOMALY = "anomaly.";

    /**
     * {@code h} with its anomaly's keys prefixed (keys of their own), ids prefixed, times shifted by
     * {@code offset}, in the order the transactions ended; declaring its initial values when
     * {@code first}, else those of its anomaly's keys only (the others continue the run before).
     */
    static History renamed(History h, String prefix, long offset, boolean first) {
        HistoryBuilder b = History.builder().initialStateComplete(h.initialState().isComplete())
                .unknownInitialValues(h.initialState().unknownValues());
        InitialState initial = h.initialState();
        for (int k = 0; k < h.keys().size(); k++) {
            int v = initial.valueOf(k);
            String name = h.keys().name(k);
            if ((first || name.startsWith(ANOMALY))
                    && (v > ValueTable.ABSENT || (!initial.isComplete() && v != InitialState.UNKNOWN))) {
                b.initialValue(renamed(name, prefix), h.values().get(v));
            }
        }
        List<Transaction> byEnd = new ArrayList<>(h.transactions());
        byEnd.sort(Comparator.comparingLong(Transaction::endTime));
        for (Transaction t : byEnd) {
            HistoryBuilder.TransactionBuilder c = b.transaction(prefix + t.id());
            Session s = h.sessionOf(t);
            if (!s.isImplicit()) {
                c.session(s.name());
            }
            if (!t.isCommitted()) {
                c.aborted();
            }
            c.times(t.startTime() + offset, t.endTime() + offset);
            for (int op = 0; op < t.size(); op++) {
                String key = renamed(h.keys().name(t.key(op)), prefix);
                Object value = h.values().get(t.value(op));
                switch (t.kind(op)) {
                    case READ -> c.read(key, value);
                    case WRITE -> c.write(key, value);
                    default -> throw new IllegalArgumentException("predicate reads are not checked in rounds");
                }
            }
        }
        return b.build();
    }

    private static String renamed(String key, String prefix) {
        return key.startsWith(ANOMALY) ? prefix + key : key;
    }
}
