package dev.isocheck.bench;

import dev.isocheck.GpuMode;
import dev.isocheck.internal.cli.SystemProperties;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.format.HistoryFormat;
import dev.isocheck.format.HistoryReader;
import dev.isocheck.history.History;
import dev.isocheck.internal.solve.SatChecker;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Times a {@link Checker} on {@link Workloads} histories and on history files, and prints one row
 * per (history, level): transactions, operations, verdict, median and minimum check time, and
 * heap. Run it with {@code bench/run.sh}; {@link #USAGE} lists the arguments.
 *
 * <p>Only the check is timed: each run gets a history generated or read afresh (a {@link History}
 * caches its key index on first use, so a reused one would time later runs without that work),
 * and the heap is collected before it. When a verdict is not the one known by construction
 * (satisfied for a clean workload, violated where an injected anomaly violates the level), a
 * {@code MISMATCH} line is printed and the exit status is 3.
 */
public final class EngineBenchmark {

    /** Every verdict was the one expected. */
    public static final int EXIT_OK = 0;
    /** The command line was invalid, or a history file could not be read. */
    public static final int EXIT_USAGE = 2;
    /** Some verdict was not the one expected (an {@link Verdict.Unknown} included). */
    public static final int EXIT_MISMATCH = 3;
    /** A check ran past {@code --timeout-s}; the rows after it were not run. */
    public static final int EXIT_TIMEOUT = 4;

    /** The command line. */
    public static final String USAGE = """
            usage: EngineBenchmark [OPTION...] [HISTORY_PATH...]
              --workload LIST  blindw-rh, blindw-rw, blindw-wh, blindw-pred, ycsb-dup, tpcc, twitter,
                               hot-keys, or all
                               (default blindw-rw when no HISTORY_PATH is given, else none)
              --size LIST      transaction counts, e.g. 2k,10k,100k (default 10k)
              --level LIST     serializable, strict-serializable, snapshot-isolation, causal,
                               read-atomic, read-committed, or all (the first three; default
                               serializable)
              --inject LIST    none, lost-update, write-skew, read-skew, stale-read (default none); each
                               workload and size is run once per entry
              --times T        the generated histories' times: overlapping (default; sessions as
                               closed-loop clients), serial (one transaction at a time), none
              --checker NAME   pipeline (dev.isocheck.internal.engine.CheckPipeline with the engine's stage report; default), sat
                               (dev.isocheck.internal.solve.SatChecker), pipeline-sat (the pipeline's
                               screening, then SatChecker), api (Isocheck.check: the check as users
                               run it, a violation explained), or the class name of any Checker
                               with a public no-argument constructor
              --search S       with the pipeline: own (the acyclicity theory inside isocheck's own
                               CDCL search, default), theory (the same theory inside sat4j)
                               or loop (sat4j: solve, check the model, learn its cycles)
              --narrow-cycles B  with the pipeline: on (default) or off, the clauses of cycles of
                               width one and two added before the search
              --warmup N       unmeasured runs first (default 1)
              --runs N         measured runs (default 5)
              --seed N         generator seed (default 1)
              --timeout-s N    give up on a check after N seconds: the table so far is printed and
                               the benchmark stops (default: no limit)
              --format FORMAT  read every HISTORY_PATH in this format (default: by name, as the
                               check command does: *.jsonl, *.bincode, a directory of Cobra *.log)
              --expect V       satisfied or violated: the verdict expected of HISTORY_PATHs
                               (default: none checked)
              --csv FILE       also write the rows as CSV to FILE (- for standard output)
              --help           print this
            HISTORY_PATH: a history file or Cobra log directory, e.g.
              extension/src/test/resources/samples/veristrong-artifact/fig11/ser/dbcop/chengRW-1000/history.bincode
            exit status: 0 as expected, 2 invalid arguments or input, 3 a verdict not as
            expected, 4 a check timed out""";

    private EngineBenchmark() {
    }

    /** Runs the benchmark and exits with its status. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the benchmark on {@code args}, printing the table to {@code out} and progress to {@code err}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (Arrays.asList(args).contains("--help")) {
            out.println(USAGE);
            return EXIT_OK;
        }
        Options options;
        List<Case> cases;
        try {
            // The one place the benchmark reads isocheck.gpu; the checkers are given the mode.
            options = Options.parse(args, SystemProperties.checkOptions().gpuMode());
            cases = cases(options);
        } catch (IllegalArgumentException e) {
            err.println("EngineBenchmark: " + e.getMessage());
            err.println(USAGE);
            return EXIT_USAGE;
        }
        return new Session(options, out, err).run(cases);
    }

    /** A history to time: generated or read afresh for each run. */
    private record Case(String name, String size, Source source, Optional<InjectedAnomaly> anomaly,
            Optional<Boolean> expectSatisfied) {

        /** Whether the checker must answer satisfied at {@code level}; empty when nothing is expected. */
        Optional<Boolean> expected(IsolationLevel level) {
            return anomaly.map(a -> !a.violates(level)).or(() -> expectSatisfied);
        }
    }

    /** Produces a fresh history. */
    @FunctionalInterface
    private interface Source {
        History load() throws Exception;
    }

    private static List<Case> cases(Options o) {
        List<Case> cases = new ArrayList<>();
        for (Workloads.Kind kind : o.workloads) {
            for (int size : o.sizes) {
                for (InjectedAnomaly anomaly : o.anomalies) {
                    String name = anomaly == InjectedAnomaly.NONE ? kind.cliName() : kind.cliName() + "+" + anomaly.cliName();
                    cases.add(new Case(name, sizeLabel(size), () -> Workloads.generate(kind, size, o.seed, anomaly, o.timing).history(),
                            Optional.of(anomaly), Optional.empty()));
                }
            }
        }
        for (Path path : o.paths) {
            if (!Files.exists(path)) {
                throw new IllegalArgumentException(path + ": no such file or directory");
            }
            HistoryFormat format = o.format.or(() -> HistoryFormat.detect(path)).orElseThrow(() -> new IllegalArgumentException(
                    path + ": unknown history format (expected *.jsonl, *.bincode, or a directory of Cobra *.log; or name one with --format)"));
            HistoryReader reader = HistoryReader.of(format);
            cases.add(new Case(label(path), "-", () -> reader.read(path), Optional.empty(), o.expect));
        }
        return cases;
    }

    /** The path from its {@code samples/} folder on, if it has one: the table stays readable. */
    private static String label(Path path) {
        String text = path.toString().replace('\\', '/');
        int at = text.lastIndexOf("/samples/");
        return at < 0 ? text : text.substring(at + "/samples/".length());
    }

    private static String sizeLabel(int size) {
        if (size >= 1_000_000 && size % 1_000_000 == 0) {
            return size / 1_000_000 + "m";
        }
        return size >= 1000 && size % 1000 == 0 ? size / 1000 + "k" : Integer.toString(size);
    }

    /** One row of the table. */
    private record Row(String workload, String size, IsolationLevel level, int transactions, long operations,
            String verdict, String expected, List<Double> millis, long baseBytes, long peakBytes,
            Map<String, Double> stages, String note) {

        double median() {
            if (millis.isEmpty()) {
                return Double.NaN;
            }
            double[] sorted = millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = sorted.length;
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }

        double min() {
            return millis.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        }
    }

    /** Thrown when a check runs past the time limit. */
    private static final class TimedOut extends Exception {
        TimedOut(String message) {
            super(message);
        }
    }

    /** One benchmark run over all cases. */
    private static final class Session {

        private final Options options;
        private final PrintStream out;
        private final PrintStream err;
        private final List<Row> rows = new ArrayList<>();
        private final List<String> mismatches = new ArrayList<>();

        Session(Options options, PrintStream out, PrintStream err) {
            this.options = options;
            this.out = out;
            this.err = err;
        }

        int run(List<Case> cases) {
            Runtime runtime = Runtime.getRuntime();
            out.printf("isocheck engine benchmark: checker %s" + (options.checker == null ? " (search " + options.search + ", narrow cycles " + (options.narrowCycles ? "on" : "off") + ")" : "") + ", seed %d, %s times, %d warm-up + %d measured runs, Java %s, max heap %d MB, %d cpus%s%n",
                    options.checkerName, options.seed, options.timing, options.warmup, options.runs, System.getProperty("java.version"),
                    runtime.maxMemory() >> 20, runtime.availableProcessors(), "");
            int status = EXIT_OK;
            ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
                // A check that timed out cannot be stopped; a daemon thread at least lets the JVM exit.
                Thread t = new Thread(r, "check");
                t.setDaemon(true);
                return t;
            });
            try (HeapSampler heap = new HeapSampler()) {
                outer:
                for (Case c : cases) {
                    for (IsolationLevel level : options.levels) {
                        try {
                            rows.add(measure(c, level, heap, executor));
                        } catch (TimedOut e) {
                            err.println("EngineBenchmark: " + e.getMessage() + "; stopping (the check cannot be interrupted)");
                            out.println("TIMEOUT " + e.getMessage());
                            status = EXIT_TIMEOUT;
                            break outer;
                        } catch (Exception e) {
                            err.println("EngineBenchmark: " + c.name() + ": cannot be loaded: " + e);
                            status = Math.max(status, EXIT_USAGE);
                            continue outer;
                        }
                    }
                }
            } finally {
                executor.shutdownNow();
            }
            printTable();
            if (options.csv != null) {
                status = Math.max(status, writeCsv());
            }
            for (String m : mismatches) {
                out.println("MISMATCH " + m);
            }
            if (!mismatches.isEmpty()) {
                err.println("EngineBenchmark: " + mismatches.size() + " verdict(s) not as expected");
                return EXIT_MISMATCH;
            }
            return status;
        }

        private Row measure(Case c, IsolationLevel level, HeapSampler heap, ExecutorService executor) throws Exception {
            long started = System.nanoTime();
            History first = c.source().load();
            err.printf("%s %s: %d transactions, %d operations, %s in %d ms; checking at %s%n", c.name(), c.size(),
                    first.size(), first.operationCount(), c.anomaly().isPresent() ? "generated" : "read",
                    (System.nanoTime() - started) / 1_000_000, level);
            int transactions = first.size();
            long operations = first.operationCount();
            Optional<Boolean> expected = c.expected(level);
            List<Double> millis = new ArrayList<>();
            Map<String, List<Double>> stageMillis = new LinkedHashMap<>();
            long base = 0;
            long peak = 0;
            String verdictName = "";
            String note = "";
            int wrongRuns = 0;
            String firstWrong = null;
            for (int run = 0; run < options.warmup + options.runs; run++) {
                boolean measured = run >= options.warmup;
                History history = run == 0 ? first : c.source().load();
                first = null;
                Checker checker;
                StageTimings stages = null;
                if (options.checker == null) {
                    stages = new StageTimings(options.search, options.narrowCycles, options.gpu);
                    checker = new CheckPipeline(stages);
                } else {
                    checker = options.checker.get();
                }
                System.gc();
                long before = heap.used();
                heap.reset();
                long start = System.nanoTime();
                Future<Verdict> pending = executor.submit(() -> checker.check(history, level));
                Verdict verdict;
                try {
                    verdict = options.timeoutSeconds > 0 ? pending.get(options.timeoutSeconds, TimeUnit.SECONDS) : pending.get();
                } catch (TimeoutException e) {
                    throw new TimedOut(c.name() + " " + c.size() + " at " + level + ": no verdict after " + options.timeoutSeconds + " s");
                } catch (ExecutionException e) {
                    verdict = null;
                    note = "error: " + e.getCause();
                }
                double elapsed = (System.nanoTime() - start) / 1e6;
                long high = heap.peak();
                String name = verdict == null ? "Error" : shortName(verdict);
                if (verdict != null) {
                    note = detail(verdict);
                }
                err.printf("  %s run %d: %s in %.1f ms%n", measured ? "measured" : "warm-up", run + 1, name, elapsed);
                if (expected.isPresent() && !(verdict != null && verdict.isSatisfied() == expected.get() && !(verdict instanceof Verdict.Unknown))) {
                    if (wrongRuns++ == 0) {
                        firstWrong = c.name() + " " + c.size() + " at " + level + ": expected "
                                + (expected.get() ? "Satisfied" : "Violated") + ", got " + name + (note.isEmpty() ? "" : " (" + note + ")");
                        out.println("!!!!!!!! MISMATCH " + firstWrong);
                    }
                }
                verdictName = name;
                if (measured) {
                    millis.add(elapsed);
                    base = Math.max(base, before);
                    peak = Math.max(peak, high);
                    if (stages != null) {
                        stages.stages().forEach((stage, ms) -> stageMillis.computeIfAbsent(stage, s -> new ArrayList<>()).add(ms));
                    }
                }
            }
            if (wrongRuns > 0) {
                mismatches.add(firstWrong + (wrongRuns > 1 ? " [" + wrongRuns + " of " + (options.warmup + options.runs) + " runs]" : ""));
            }
            Map<String, Double> stageMedians = new LinkedHashMap<>();
            stageMillis.forEach((stage, ms) -> stageMedians.put(stage, median(ms)));
            return new Row(c.name(), c.size(), level, transactions, operations, verdictName,
                    expected.map(e -> e ? "Satisfied" : "Violated").orElse("-"), millis, base, peak, stageMedians, note);
        }

        private static double median(List<Double> values) {
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = sorted.length;
            return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }

        private static String shortName(Verdict verdict) {
            return verdict instanceof Verdict.Satisfied ? "Satisfied" : verdict instanceof Verdict.Violated ? "Violated" : "Unknown";
        }

        private static String detail(Verdict verdict) {
            String text;
            if (verdict instanceof Verdict.Violated v) {
                text = v.anomaly().type().shortName();
            } else if (verdict instanceof Verdict.Unknown u) {
                text = u.reason();
            } else {
                return "";
            }
            text = text.replaceAll("\\s+", " ").strip();
            return text.length() > 100 ? text.substring(0, 100) + "..." : text;
        }

        private static final String[] HEADER = {"workload", "size", "level", "txns", "ops", "verdict", "expected",
                "median ms", "min ms", "heap base MB", "heap peak MB"};

        private List<String[]> cells() {
            List<String[]> cells = new ArrayList<>();
            for (Row r : rows) {
                cells.add(new String[] {r.workload(), r.size(), r.level().cliName(), Integer.toString(r.transactions()),
                        Long.toString(r.operations()), r.verdict(), r.expected(), format(r.median()), format(r.min()),
                        Long.toString(r.baseBytes() >> 20), Long.toString(r.peakBytes() >> 20)});
            }
            return cells;
        }

        private static String format(double millis) {
            return Double.isNaN(millis) ? "-" : String.format(Locale.ROOT, "%.1f", millis);
        }

        private static String stagesText(Row r, String separator) {
            return r.stages().entrySet().stream().map(e -> e.getKey() + "=" + (e.getValue() == Math.rint(e.getValue())
                    ? Long.toString(Math.round(e.getValue())) : format(e.getValue()))).collect(Collectors.joining(separator));
        }

        private void printTable() {
            List<String[]> cells = cells();
            int[] widths = new int[HEADER.length];
            for (int i = 0; i < HEADER.length; i++) {
                widths[i] = HEADER[i].length();
                for (String[] row : cells) {
                    widths[i] = Math.max(widths[i], row[i].length());
                }
            }
            out.println();
            out.println(line(HEADER, widths) + (rows.stream().allMatch(r -> r.stages().isEmpty()) ? "" : "  stages (median ms; counts)"));
            for (int r = 0; r < cells.size(); r++) {
                Row row = rows.get(r);
                out.println(line(cells.get(r), widths) + (row.stages().isEmpty() ? "" : "  " + stagesText(row, " ")));
            }
            for (Row row : rows) {
                if (!row.note().isEmpty() && !row.verdict().equals("Satisfied")) {
                    out.println("  " + row.workload() + " " + row.size() + " at " + row.level() + ": " + row.note());
                }
            }
        }

        /** Text columns left-aligned, numbers right-aligned. */
        private static String line(String[] cells, int[] widths) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < cells.length; i++) {
                boolean left = i <= 2 || i == 5 || i == 6;
                String pad = " ".repeat(widths[i] - cells[i].length());
                b.append(i == 0 ? "" : "  ").append(left ? cells[i] + pad : pad + cells[i]);
            }
            return b.toString().stripTrailing();
        }

        private int writeCsv() {
            StringBuilder csv = new StringBuilder("workload,size,level,txns,ops,verdict,expected,median_ms,min_ms,heap_base_mb,heap_peak_mb,stages_median_ms,note\n");
            List<String[]> cells = cells();
            for (int r = 0; r < cells.size(); r++) {
                List<String> fields = new ArrayList<>(Arrays.asList(cells.get(r)));
                fields.add(stagesText(rows.get(r), ";"));
                fields.add(rows.get(r).note());
                csv.append(fields.stream().map(Session::csvField).collect(Collectors.joining(","))).append('\n');
            }
            if (options.csv.equals("-")) {
                out.println();
                out.print(csv);
                return EXIT_OK;
            }
            try {
                Files.writeString(Path.of(options.csv), csv, StandardCharsets.UTF_8);
                return EXIT_OK;
            } catch (IOException e) {
                err.println("EngineBenchmark: cannot write " + options.csv + ": " + e.getMessage());
                return EXIT_USAGE;
            }
        }

        private static String csvField(String field) {
            return field.contains(",") || field.contains("\"") || field.contains("\n")
                    ? "\"" + field.replace("\"", "\"\"") + "\"" : field;
        }
    }

    /** The parsed command line. */
    private static final class Options {
        List<Workloads.Kind> workloads = new ArrayList<>();
        List<Integer> sizes = List.of(10_000);
        List<IsolationLevel> levels = List.of(IsolationLevel.SERIALIZABLE);
        List<InjectedAnomaly> anomalies = List.of(InjectedAnomaly.NONE);
        String checkerName = "pipeline";
        /** {@code null}: the pipeline, with the engine's stage report. */
        Supplier<Checker> checker;
        SatChecker.Search search = SatChecker.Search.OWN;
        boolean narrowCycles = true;
        /** From the system property {@value SystemProperties#GPU}; a {@code --checker} class name gets its own default. */
        GpuMode gpu = GpuMode.AUTO;
        int warmup = 1;
        int runs = 5;
        long seed = 1;
        Timing timing = Timing.OVERLAPPING;
        long timeoutSeconds;
        Optional<HistoryFormat> format = Optional.empty();
        Optional<Boolean> expect = Optional.empty();
        String csv;
        List<Path> paths = new ArrayList<>();

        static Options parse(String[] args, GpuMode gpu) {
            Options o = new Options();
            o.gpu = gpu;
            boolean workloadsGiven = false;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                String inline = null;
                if (arg.startsWith("--") && arg.contains("=")) {
                    inline = arg.substring(arg.indexOf('=') + 1);
                    arg = arg.substring(0, arg.indexOf('='));
                }
                if (!arg.startsWith("--")) {
                    o.paths.add(Path.of(arg));
                    continue;
                }
                String value = inline != null ? inline : value(args, ++i, arg);
                switch (arg) {
                    case "--workload" -> {
                        workloadsGiven = true;
                        o.workloads = list(value).stream().anyMatch(w -> w.equalsIgnoreCase("all"))
                                ? List.of(Workloads.Kind.values()) : list(value).stream().map(Workloads.Kind::fromName).toList();
                    }
                    case "--size" -> o.sizes = list(value).stream().map(Options::size).toList();
                    case "--level" -> o.levels = list(value).stream().anyMatch(l -> l.equalsIgnoreCase("all"))
                            ? List.of(dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) : list(value).stream().map(IsolationLevel::fromName).toList();
                    case "--inject" -> o.anomalies = list(value).stream().map(InjectedAnomaly::fromName).toList();
                    case "--checker" -> {
                        o.checkerName = value;
                        o.checker = checker(value, o.gpu);
                    }
                    case "--narrow-cycles" -> o.narrowCycles = switch (value.toLowerCase(Locale.ROOT)) {
                        case "on" -> true;
                        case "off" -> false;
                        default -> throw new IllegalArgumentException("--narrow-cycles takes on or off, not '" + value + "'");
                    };
                    case "--search" -> o.search = switch (value.toLowerCase(Locale.ROOT)) {
                        case "own" -> SatChecker.Search.OWN;
                        case "theory" -> SatChecker.Search.THEORY;
                        case "loop" -> SatChecker.Search.SOLVE_CHECK_LEARN;
                        default -> throw new IllegalArgumentException("--search takes own, theory or loop, not '" + value + "'");
                    };
                    case "--warmup" -> o.warmup = count(value, arg, 0);
                    case "--runs" -> o.runs = count(value, arg, 1);
                    case "--seed" -> o.seed = number(value, arg);
                    case "--times" -> o.timing = Timing.fromName(value);
                    case "--timeout-s" -> o.timeoutSeconds = count(value, arg, 0);
                    case "--format" -> o.format = Optional.of(HistoryFormat.fromName(value));
                    case "--expect" -> o.expect = Optional.of(switch (value.toLowerCase(Locale.ROOT)) {
                        case "satisfied" -> true;
                        case "violated" -> false;
                        default -> throw new IllegalArgumentException("--expect takes satisfied or violated, not '" + value + "'");
                    });
                    case "--csv" -> o.csv = value;
                    default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
                }
            }
            if (!workloadsGiven && o.paths.isEmpty()) {
                o.workloads = List.of(Workloads.Kind.BLINDW_RW);
            }
            if (o.workloads.isEmpty() && o.paths.isEmpty()) {
                throw new IllegalArgumentException("nothing to run: no workload and no history path");
            }
            return o;
        }

        private static Supplier<Checker> checker(String name, GpuMode gpu) {
            switch (name) {
                case "pipeline":
                    return null;
                case "sat":
                    return () -> new SatChecker(gpu);
                case "pipeline-sat":
                    return () -> new CheckPipeline(new SatChecker(gpu));
                case "api":
                    // The check as users run it: the pipeline, then the steps every check takes
                    // (a proof on a restriction where the search gave up, the explanation).
                    return () -> (history, level) -> dev.isocheck.Isocheck.check(history, level,
                            dev.isocheck.CheckOptions.defaults().withGpuMode(gpu)).verdict();
                default:
                    break;
            }
            Class<? extends Checker> type;
            try {
                type = Class.forName(name).asSubclass(Checker.class);
                type.getConstructor();
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException("--checker: no class " + name + " (or pipeline, sat, pipeline-sat, api)");
            } catch (ClassCastException e) {
                throw new IllegalArgumentException("--checker: " + name + " is not a " + Checker.class.getName());
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException("--checker: " + name + " has no public no-argument constructor");
            }
            return () -> {
                try {
                    return type.getConstructor().newInstance();
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot construct " + name, e);
                }
            };
        }

        private static List<String> list(String value) {
            List<String> items = Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
            if (items.isEmpty()) {
                throw new IllegalArgumentException("an empty list: '" + value + "'");
            }
            return items;
        }

        /** {@code 2000}, {@code 2k}, {@code 1m}. */
        static int size(String text) {
            String t = text.toLowerCase(Locale.ROOT);
            int scale = t.endsWith("k") ? 1_000 : t.endsWith("m") ? 1_000_000 : 1;
            String digits = scale == 1 ? t : t.substring(0, t.length() - 1);
            try {
                long n = Long.parseLong(digits) * scale;
                if (n < 0 || n > Integer.MAX_VALUE) {
                    throw new NumberFormatException();
                }
                return (int) n;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--size: not a transaction count: '" + text + "'");
            }
        }

        private static int count(String value, String option, int min) {
            long n = number(value, option);
            if (n < min || n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(option + " must be at least " + min + ", not " + value);
            }
            return (int) n;
        }

        private static long number(String value, String option) {
            try {
                return Long.parseLong(value.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " takes a number, not '" + value + "'");
            }
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }
    }
}
