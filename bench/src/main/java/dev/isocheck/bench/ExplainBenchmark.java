package dev.isocheck.bench;

import dev.isocheck.CheckOptions;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.cli.SystemProperties;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.internal.explain.CoreExplainer;
import dev.isocheck.internal.explain.ExhaustiveExplainer;
import dev.isocheck.internal.explain.Explainer;
import dev.isocheck.explain.Explanation;
import dev.isocheck.history.History;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How often, and how fast, violations are explained: histories from the broken simulated databases
 * ({@code simulate}), each checked at every level and each violation explained, by
 * {@link CoreExplainer} (the default) or by {@link ExhaustiveExplainer} on the verdict's
 * transactions alone. Prints, per level, the violations and what their explanations were, and the
 * median and largest explaining time. Run it with
 * {@code java -cp bench/target/isocheck-bench.jar dev.isocheck.bench.ExplainBenchmark [OPTION...]};
 * {@link #USAGE} lists the options.
 */
public final class ExplainBenchmark {

    /** The command line. */
    public static final String USAGE = """
            usage: ExplainBenchmark [OPTION...]
              --sessions N      sessions per history (default 4)
              --per-session N   transactions per session (default 8)
              --keys N          plain keys (default 4); there are 3 row keys besides
              --values N        0: unique values (default); otherwise values drawn from [0, N)
              --seeds N         histories per database, seeds 1000, 1001, ... (default 10)
              --explainer E     core (default) or named (the exhaustive explainer on the verdict's transactions)
              --bound N         the most transactions explained exhaustively (default 10)
              --reasons         print why each violation was left unexplained, or shown in its likeliest
                                case only
              --hot-keys N      instead of the simulated databases: the bench's hot-keys workload of N
                                transactions (seeds 1, 2, ...), with --inject
              --inject LIST     with --hot-keys: lost-update, write-skew, read-skew, stale-read or none,
                                comma-separated (default lost-update,write-skew,read-skew)""";

    private ExplainBenchmark() {
    }

    /** Runs the benchmark; exit status 2 on a bad command line. */
    public static void main(String[] args) {
        int sessions = 4;
        int perSession = 8;
        int keys = 4;
        int values = 0;
        int seeds = 10;
        boolean core = true;
        boolean reasons = false;
        int hotKeys = 0;
        List<InjectedAnomaly> anomalies = List.of(InjectedAnomaly.LOST_UPDATE, InjectedAnomaly.WRITE_SKEW,
                InjectedAnomaly.READ_SKEW);
        int bound = ExhaustiveExplainer.DEFAULT_MAX_TRANSACTIONS;
        CheckOptions options;
        try {
            // The one place this benchmark reads isocheck.gpu; the pipelines are given the mode.
            options = SystemProperties.checkOptions();
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--sessions" -> sessions = Integer.parseInt(required(value, args[i++]));
                    case "--per-session" -> perSession = Integer.parseInt(required(value, args[i++]));
                    case "--keys" -> keys = Integer.parseInt(required(value, args[i++]));
                    case "--values" -> values = Integer.parseInt(required(value, args[i++]));
                    case "--seeds" -> seeds = Integer.parseInt(required(value, args[i++]));
                    case "--reasons" -> reasons = true;
                    case "--hot-keys" -> hotKeys = Integer.parseInt(required(value, args[i++]));
                    case "--inject" -> anomalies = java.util.Arrays.stream(required(value, args[i++]).split(","))
                            .map(InjectedAnomaly::fromName).toList();
                    case "--bound" -> bound = Integer.parseInt(required(value, args[i++]));
                    case "--explainer" -> {
                        String name = required(value, args[i++]);
                        if (!name.equals("core") && !name.equals("named")) {
                            throw new IllegalArgumentException("--explainer is core or named, not " + name);
                        }
                        core = name.equals("core");
                    }
                    case "--help" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("ExplainBenchmark: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        Workload workload = new Workload(sessions, perSession, 5, keys, 3, "t", 5, 4, 1, 1, values, 0.1, true,
                Workload.InitialKnowledge.KNOWN, true);
        ExhaustiveExplainer exhaustive = new ExhaustiveExplainer(bound, ExhaustiveExplainer.DEFAULT_BUDGET,
                ExhaustiveExplainer.DEFAULT_MAX_CASES);
        CheckPipeline pipeline = new CheckPipeline(options);
        List<Source> sources = new ArrayList<>();
        if (hotKeys > 0) {
            int size = hotKeys;
            for (long seed = 1; seed <= seeds; seed++) {
                for (InjectedAnomaly anomaly : anomalies) {
                    long s = seed;
                    sources.add(new Source("hot-keys " + size + " + " + anomaly.cliName() + " seed " + s,
                            () -> Workloads.generate(Workloads.Kind.HOT_KEYS, size, s, anomaly).history()));
                }
            }
        } else {
            for (SimulatedDatabase database : List.of(SimulatedDatabase.snapshotIsolation(), SimulatedDatabase.readCommitted(),
                    SimulatedDatabase.lostUpdate(0.3), SimulatedDatabase.staleRead(0.2))) {
                HistoryGenerator generator = new HistoryGenerator(workload, database);
                for (long seed = 1000; seed < 1000 + seeds; seed++) {
                    long s = seed;
                    sources.add(new Source(database + " seed " + s, () -> generator.generate(s).history()));
                }
            }
        }
        run(sources, core ? new CoreExplainer(exhaustive, pipeline, CoreExplainer.DEFAULT_BUDGET) : exhaustive,
                pipeline, System.out, reasons);
    }

    private static String required(String value, String option) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    /** What one level's violations were explained as, and how long it took. */
    private static final class Tally {
        int violations;
        int certain;
        int cases;
        int likely;
        int read;
        int unexplained;
        final List<Long> millis = new ArrayList<>();
    }

    /** A history to explain the violations of, generated when its turn comes. */
    private record Source(String name, java.util.function.Supplier<History> history) {
    }

    private static void run(List<Source> sources, Explainer explainer, CheckPipeline pipeline, PrintStream out,
            boolean reasons) {
        Map<IsolationLevel, Tally> tallies = new EnumMap<>(IsolationLevel.class);
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            tallies.put(level, new Tally());
        }
        int transactions = 0;
        for (Source source : sources) {
            History history = source.history().get();
            transactions = history.size();
            for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                if (!(pipeline.check(history, level) instanceof Verdict.Violated violated)) {
                    continue;
                }
                long started = System.nanoTime();
                Explanation explanation = explainer.explain(history, level, violated.anomaly().transactions());
                long millis = (System.nanoTime() - started) / 1_000_000;
                Tally tally = tallies.get(level);
                tally.millis.add(millis);
                tally.violations++;
                String kind;
                String why = "";
                if (explanation instanceof Explanation.Cycles cycles) {
                    kind = cycles.isCertain() ? "certain cycle" : "case analysis";
                    if (cycles.isCertain()) {
                        tally.certain++;
                    } else {
                        tally.cases++;
                    }
                } else if (explanation instanceof Explanation.LikelyCase likely) {
                    kind = "likeliest case only";
                    why = ": " + likely.unshown();
                    tally.likely++;
                } else if (explanation instanceof Explanation.Screened) {
                    kind = "read anomaly";
                    tally.read++;
                } else {
                    kind = "unexplained";
                    why = ": " + ((Explanation.Unexplained) explanation).reason();
                    tally.unexplained++;
                }
                if (reasons) {
                    out.printf(Locale.ROOT, "%s in %d ms: %s at %s%s%n", kind, millis, source.name(), level.cliName(), why);
                }
            }
        }
        out.printf(Locale.ROOT, "%d histories of %d transactions (the last)%n", sources.size(), transactions);
        out.println("| level | violations | certain cycle | case analysis | likeliest case | read anomaly | unexplained"
                + " | median ms | max ms |");
        out.println("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
        tallies.forEach((level, t) -> {
            List<Long> sorted = new ArrayList<>(t.millis);
            Collections.sort(sorted);
            long median = sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
            long max = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1);
            out.printf(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |%n", level.cliName(), t.violations,
                    t.certain, t.cases, t.likely, t.read, t.unexplained, median, max);
        });
    }
}
