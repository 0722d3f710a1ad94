package dev.isocheck.internal.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.isocheck.Anomaly;
import dev.isocheck.CheckOptions;
import dev.isocheck.CheckResult;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Isocheck;
import dev.isocheck.Verdict;
import dev.isocheck.internal.explain.CheckAndExplain;
import dev.isocheck.internal.explain.CoreExplainer;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.HtmlRenderer;
import dev.isocheck.explain.JsonRenderer;
import dev.isocheck.explain.TextRenderer;
import dev.isocheck.format.HistoryFormat;
import dev.isocheck.format.HistoryFormatException;
import dev.isocheck.format.HistoryReader;
import dev.isocheck.history.History;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/**
 * {@code check [--level LEVEL] [--format FORMAT] [--json] [--report DIR] FILE_OR_DIR...}: reads
 * each history, checks it ({@link Isocheck#check(History, IsolationLevel, CheckOptions)}), and
 * prints one line per history (see {@code docs/history-format.md}). Each violation is
 * explained ({@link CoreExplainer}: the smallest cycles, from the transactions the verdict names or
 * a minimal set of transactions that still violates the level) under its line, in the JSON
 * ({@code anomaly}, {@code cycle}, {@code edges}, {@code evidence}), and with {@code --report} in a
 * self-contained HTML page in {@code DIR}.
 *
 * <p>A directory is a Cobra history when it holds {@code *.log} files; otherwise it is searched
 * for histories ({@code *.jsonl}, {@code *.bincode}, and Cobra directories), checked in path order.
 */
public final class CheckCommand {

    /** Every history satisfies the level. */
    public static final int EXIT_OK = 0;
    /** Some history violates the level. */
    public static final int EXIT_VIOLATION = 1;
    /** An input, or the command line, is invalid, or a history could not be decided. */
    public static final int EXIT_INVALID = 2;

    static final String USAGE = """
            usage: isocheck check [--level LEVEL] [--format FORMAT] [--json] [--report DIR] FILE_OR_DIR...
              --level   serializable (default), strict-serializable, snapshot-isolation
              --format  jsonl (default for *.jsonl), dbcop (*.bincode), cobra (a directory of *.log,
                        read as the logs declare), cobra-unique, cobra-duplicates (force a reading)
              --json    one JSON object per history instead of text
              --report  write an HTML page explaining each violation into DIR (created if needed)
            exit status: 0 all histories satisfy the level, 1 one violates it, 2 invalid input""";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream out;
    private final PrintStream err;
    /** Checks and explains one history: {@link Isocheck#check}, unless a test says otherwise. */
    private final BiFunction<History, IsolationLevel, CheckResult> check;

    /** A command printing to these streams, checking with {@link CheckOptions#defaults()}. */
    public CheckCommand(PrintStream out, PrintStream err) {
        this(out, err, CheckOptions.defaults());
    }

    /**
     * A command printing to these streams, checking with {@code options} (which {@link Main} reads
     * from the system properties).
     */
    public CheckCommand(PrintStream out, PrintStream err, CheckOptions options) {
        Objects.requireNonNull(options, "options is null");
        this.out = out;
        this.err = err;
        this.check = (history, level) -> Isocheck.check(history, level, options);
    }

    /** A command deciding with {@code checker}, and explaining as by default (tests). */
    CheckCommand(PrintStream out, PrintStream err, Checker checker) {
        this.out = out;
        this.err = err;
        CoreExplainer explainer = new CoreExplainer();
        this.check = (history, level) -> CheckAndExplain.run(history, level, checker, explainer);
    }

    /** Runs the command on its arguments (without the word {@code check}) and returns the exit status. */
    public int run(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("isocheck: " + e.getMessage());
            err.println(USAGE);
            return EXIT_INVALID;
        }
        int status = EXIT_OK;
        for (Path input : options.inputs) {
            List<Path> histories;
            try {
                histories = histories(input, options.format);
            } catch (InvalidInput e) {
                err.println("isocheck: " + e.getMessage());
                status = Math.max(status, EXIT_INVALID);
                continue;
            }
            for (Path history : histories) {
                status = Math.max(status, checkOne(history, options));
            }
        }
        return status;
    }

    private int checkOne(Path path, Options options) {
        try {
            return readAndCheck(path, options);
        } catch (RuntimeException | StackOverflowError e) {
            // A last resort: a bug must not print a stack trace, nor a verdict it did not reach.
            String message = e.getMessage() == null ? "" : e.getMessage().replaceAll("\\s+", " ").strip();
            return invalid(path, options, path + ": internal error: " + e.getClass().getName()
                    + (message.isEmpty() ? "" : ": " + message) + " (please report)");
        }
    }

    private int readAndCheck(Path path, Options options) {
        HistoryFormat format = options.format.or(() -> HistoryFormat.detect(path)).orElseThrow();
        long started = System.nanoTime();
        History history;
        try {
            history = HistoryReader.of(format).read(path);
        } catch (HistoryFormatException e) {
            return invalid(path, options, e.getMessage());
        } catch (IOException | UncheckedIOException e) {
            return invalid(path, options, path + ": cannot be read: " + describe(e));
        }
        long loadMillis = (System.nanoTime() - started) / 1_000_000;
        CheckResult result = check.apply(history, options.level);
        Verdict verdict = result.verdict();
        long millis = result.checkDuration().toMillis();
        Explanation explanation = result.explanation().orElse(null);
        long explainMillis = result.explainDuration().toMillis();
        Optional<Path> report = Optional.empty();
        if (explanation != null && options.report.isPresent()) {
            try {
                report = Optional.of(writeReport(options.report.get(), path, explanation));
            } catch (IOException | UncheckedIOException e) {
                return invalid(path, options, options.report.get() + ": cannot write the report: " + describe(e));
            }
        }
        if (options.json) {
            ObjectNode node = json(path, history, verdict, explanation, millis, loadMillis);
            if (explanation != null) {
                node.put("explainMillis", explainMillis);
            }
            report.ifPresent(r -> node.put("report", r.toString()));
            out.println(node);
        } else {
            out.println(text(path, verdict, explanation) + report.map(r -> "\n  report: " + r).orElse(""));
        }
        if (verdict.isSatisfied()) {
            return EXIT_OK;
        }
        return verdict.isViolated() ? EXIT_VIOLATION : EXIT_INVALID;
    }

    private int invalid(Path path, Options options, String message) {
        err.println("isocheck: " + message);
        if (options.json) {
            ObjectNode node = JSON.createObjectNode();
            node.put("file", path.toString());
            node.put("level", options.level.cliName());
            node.putNull("ok");
            node.put("error", message);
            out.println(node);
        }
        return EXIT_INVALID;
    }

    private static String text(Path path, Verdict verdict, Explanation explanation) {
        if (verdict instanceof Verdict.Violated v) {
            if (explanation instanceof Explanation.Unexplained unexplained) {
                // The engine's own words, and why no cycle can be shown.
                return path + ": VIOLATION " + v.anomaly().type().shortName() + "\n" + HumanReport.of(v.anomaly())
                        + "\n" + new TextRenderer("  ").render(unexplained).stripTrailing();
            }
            return path + ": VIOLATION " + anomalyName(explanation) + "\n" + new TextRenderer("  ").render(explanation).stripTrailing();
        }
        if (verdict instanceof Verdict.Unknown u) {
            return path + ": UNKNOWN " + u.reason();
        }
        StringBuilder ok = new StringBuilder(path + ": OK");
        for (String caveat : ((Verdict.Satisfied) verdict).caveats()) {
            ok.append("\n  not checked: ").append(caveat);
        }
        return ok.toString();
    }

    /** The explanation's anomaly, with its familiar name: {@code G2-item (write skew)}. */
    private static String anomalyName(Explanation explanation) {
        if (explanation instanceof Explanation.Cycles cycles) {
            return cycles.anomaly() + cycles.familiarName().map(f -> " (" + f + ")").orElse("");
        }
        return ((Explanation.Screened) explanation).anomaly().type().shortName();
    }

    /**
     * Writes the HTML page of the explanation of a violation as
     * {@code DIR/<the history's path, with every character but letters, digits, '.', '-' and '_' as
     * '_'>.html}, one page per history even when several files share a name.
     */
    private static Path writeReport(Path directory, Path history, Explanation explanation) throws IOException {
        Files.createDirectories(directory);
        String name = history.normalize().toString().replaceAll("[^A-Za-z0-9._-]", "_") + ".html";
        Path page = directory.resolve(name);
        Files.writeString(page, new HtmlRenderer().render(explanation), StandardCharsets.UTF_8);
        return page;
    }

    private static ObjectNode json(Path path, History history, Verdict verdict, Explanation explanation, long millis,
            long loadMillis) {
        ObjectNode node = JSON.createObjectNode();
        node.put("file", path.toString());
        node.put("level", verdict.level().cliName());
        if (verdict instanceof Verdict.Violated v) {
            Anomaly a = v.anomaly();
            ObjectNode evidence = new JsonRenderer().toJson(explanation);
            boolean explained = !(explanation instanceof Explanation.Unexplained);
            node.put("ok", false);
            node.put("anomaly", explained ? evidence.get("anomaly").asText() : a.type().shortName());
            node.put("description", explained ? evidence.get("description").asText() : a.type().description());
            node.set("familiar", explained ? evidence.get("familiar") : node.nullNode());
            // The cycle when one is certain; a case analysis has one per case, under evidence.cases.
            node.set("cycle", evidence.has("cycle") ? evidence.get("cycle") : node.nullNode());
            node.set("edges", evidence.has("edges") ? evidence.get("edges") : node.nullNode());
            a.transactions().forEach(node.putArray("involved")::add);
            node.put("explanation", a.explanation());
            node.set("evidence", evidence);
        } else if (verdict instanceof Verdict.Unknown u) {
            node.putNull("ok");
            node.putNull("anomaly");
            node.put("unknown", u.reason());
        } else {
            node.put("ok", true);
            node.putNull("anomaly");
            List<String> caveats = ((Verdict.Satisfied) verdict).caveats();
            if (!caveats.isEmpty()) {
                caveats.forEach(node.putArray("caveats")::add);
            }
        }
        node.put("millis", millis);
        node.put("loadMillis", loadMillis);
        node.put("transactions", history.size());
        node.put("committed", history.committedCount());
        return node;
    }

    /** The histories an argument names: itself, or those found in a directory, in path order. */
    private static List<Path> histories(Path input, Optional<HistoryFormat> format) throws InvalidInput {
        if (!Files.exists(input)) {
            throw new InvalidInput(input + ": no such file or directory");
        }
        if (!Files.isDirectory(input)) {
            if (format.isEmpty() && HistoryFormat.detect(input).isEmpty()) {
                throw new InvalidInput(input + ": unknown history format (expected *.jsonl or *.bincode; or name one with --format)");
            }
            return List.of(input);
        }
        if (isCobraDirectory(input) || format.map(CheckCommand::isDirectoryFormat).orElse(false)) {
            return List.of(input);
        }
        List<Path> found = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(input)) {
            walk.sorted().forEach(p -> {
                if (Files.isDirectory(p) ? isCobraDirectory(p) : fileMatches(p, format)) {
                    found.add(p);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            throw new InvalidInput(input + ": cannot be listed: " + describe(e));
        }
        if (found.isEmpty()) {
            throw new InvalidInput(input + ": no histories found (*.jsonl, *.bincode, or directories of Cobra *.log files)");
        }
        return found;
    }

    private static boolean fileMatches(Path file, Optional<HistoryFormat> format) {
        Optional<HistoryFormat> detected = HistoryFormat.detect(file);
        return detected.isPresent() && (format.isEmpty() || format.get() == detected.get());
    }

    private static boolean isDirectoryFormat(HistoryFormat format) {
        return format == HistoryFormat.COBRA || format == HistoryFormat.COBRA_UNIQUE || format == HistoryFormat.COBRA_DUPLICATES;
    }

    private static boolean isCobraDirectory(Path dir) {
        return Files.isDirectory(dir) && HistoryFormat.detect(dir).filter(CheckCommand::isDirectoryFormat).isPresent();
    }

    private static String describe(Exception e) {
        Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
        if (cause instanceof NoSuchFileException) {
            return "no such file";
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    /** An argument that names no history. */
    private static final class InvalidInput extends Exception {
        InvalidInput(String message) {
            super(message);
        }
    }

    /** The parsed command line. */
    private record Options(IsolationLevel level, Optional<HistoryFormat> format, boolean json, Optional<Path> report,
            List<Path> inputs) {

        static Options parse(String[] args) {
            IsolationLevel level = IsolationLevel.SERIALIZABLE;
            Optional<HistoryFormat> format = Optional.empty();
            boolean json = false;
            Optional<Path> report = Optional.empty();
            List<Path> inputs = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                String inline = null;
                if (arg.startsWith("--") && arg.contains("=")) {
                    inline = arg.substring(arg.indexOf('=') + 1);
                    arg = arg.substring(0, arg.indexOf('='));
                }
                switch (arg) {
                    case "--level" -> level = IsolationLevel.fromName(inline != null ? inline : value(args, ++i, "--level"));
                    case "--format" -> format = Optional.of(HistoryFormat.fromName(inline != null ? inline : value(args, ++i, "--format")));
                    case "--json" -> json = true;
                    case "--report" -> report = Optional.of(Path.of(inline != null ? inline : value(args, ++i, "--report")));
                    default -> {
                        if (arg.startsWith("-") && !arg.equals("-")) {
                            throw new IllegalArgumentException("unknown option '" + arg + "'");
                        }
                        inputs.add(Path.of(arg));
                    }
                }
            }
            if (inputs.isEmpty()) {
                throw new IllegalArgumentException("no history file or directory given");
            }
            return new Options(level, format, json, report, inputs);
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }
    }
}
