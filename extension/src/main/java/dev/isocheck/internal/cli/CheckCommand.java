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
import dev.isocheck.internal.explain.WeakLevelExplainer;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.HtmlRenderer;
import dev.isocheck.explain.JsonRenderer;
import dev.isocheck.explain.TextRenderer;
import dev.isocheck.format.HistoryFormat;
import dev.isocheck.format.HistoryFormatException;
import dev.isocheck.format.HistoryReader;
import dev.isocheck.history.History;
import dev.isocheck.internal.limit.Limits;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code check [--level LEVEL | --classify] [--format FORMAT] [--timeout DURATION] [--json] [--report DIR]
 * FILE_OR_DIR...}: reads each history, checks it
 * ({@link Isocheck#check(History, IsolationLevel, CheckOptions)}), and prints one line per history
 * (see {@code docs/history-format.md}). Each violation is explained ({@link CoreExplainer}: the
 * smallest cycles, from the transactions the verdict names or a minimal set of transactions that
 * still violates the level) under its line, in the JSON ({@code anomaly}, {@code cycle},
 * {@code edges}, {@code evidence}), and with {@code --report} in a self-contained HTML page in
 * {@code DIR}.
 *
 * <p>A directory is a Cobra history when it holds {@code *.log} files; otherwise it is searched
 * for histories ({@code *.jsonl}, {@code *.bincode}, and Cobra directories), checked in path order.
 *
 * <p>Every history gets an answer, and one history's trouble never stops the next: a check past
 * its time limit or memory budget is {@code UNKNOWN} with the reason; a heap exhausted all the
 * same, or a bug, is one line naming the history (and a JSON object with {@code error}), never a
 * stack trace; the command goes on with the next history.
 */
public final class CheckCommand {

    /** Every history satisfies the level. */
    public static final int EXIT_OK = 0;
    /** Some history violates the level. */
    public static final int EXIT_VIOLATION = 1;
    /** An input, or the command line, is invalid, or a history could not be decided. */
    public static final int EXIT_INVALID = 2;

    static final String USAGE = """
            usage: isocheck check [--level LEVEL | --classify] [--format FORMAT] [--timeout DURATION] [--json] [--report DIR] FILE_OR_DIR...
              --level    serializable (default), strict-serializable, snapshot-isolation, prefix, causal,
                         read-atomic, read-committed
              --classify the weakest level each history violates (read-committed, read-atomic, causal,
                         prefix, snapshot-isolation, serializable), explained at that level; exit status 1 if any
              --format   jsonl (default for *.jsonl), dbcop (*.bincode), cobra (a directory of *.log,
                         read as the logs declare), cobra-unique, cobra-duplicates (force a reading)
              --timeout  give up on a history after DURATION (500ms, 30s, 5m, 1h, 1m30s; default 10m):
                         it is UNKNOWN, and the next history is checked
              --json     one JSON object per history instead of text
              --report   write an HTML page explaining each violation into DIR (created if needed)
            exit status: 0 all histories satisfy the level, 1 one violates it, 2 invalid input or a history
            not decided (UNKNOWN)""";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream out;
    private final PrintStream err;
    /** The options of every check, before the command line's ({@code --timeout}). */
    private final CheckOptions options;
    /** Decides instead of {@link Isocheck#check}, explaining as by default (tests); else {@code null}. */
    private final Checker checker;

    /** A command printing to these streams, checking with {@link CheckOptions#defaults()}. */
    public CheckCommand(PrintStream out, PrintStream err) {
        this(out, err, CheckOptions.defaults());
    }

    /**
     * A command printing to these streams, checking with {@code options} (which {@link Main} reads
     * from the system properties; {@code --timeout} replaces their time limit).
     */
    public CheckCommand(PrintStream out, PrintStream err, CheckOptions options) {
        this.out = out;
        this.err = err;
        this.options = Objects.requireNonNull(options, "options is null");
        this.checker = null;
    }

    /** A command deciding with {@code checker}, and explaining as by default (tests). */
    CheckCommand(PrintStream out, PrintStream err, Checker checker) {
        this.out = out;
        this.err = err;
        this.options = CheckOptions.defaults();
        this.checker = Objects.requireNonNull(checker, "checker is null");
    }

    /** Checks and explains one history as the options say, at {@code level}. */
    private CheckResult check(History history, Options options, IsolationLevel level) {
        if (checker != null) {
            return CheckAndExplain.run(history, level, checker, new WeakLevelExplainer(new CoreExplainer()));
        }
        CheckOptions checking = options.timeout.map(this.options::withTimeLimit).orElse(this.options);
        return Isocheck.check(history, level, checking);
    }

    /**
     * The levels {@code --classify} climbs, weakest first (Biswas and Enea's order): violating one
     * means violating every one after it.
     */
    static final List<IsolationLevel> LADDER = List.of(IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC,
            IsolationLevel.CAUSAL, IsolationLevel.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE);

    /**
     * {@code --classify}: a serializable history violates no level (its result is the serializable
     * check's); otherwise the levels are checked from the weakest, and the first violated one is the
     * answer, with its result. A level left undecided below it makes the answer undecided (that
     * level's result): the weakest violated level is only named when every weaker one passed.
     */
    private Classification classify(History history, Options options) {
        CheckResult serializable = check(history, options, IsolationLevel.SERIALIZABLE);
        if (!serializable.isViolated()) {
            return new Classification(serializable, null, serializable.isSatisfied());
        }
        for (IsolationLevel level : LADDER) {
            CheckResult result = level == IsolationLevel.SERIALIZABLE ? serializable : check(history, options, level);
            if (result.isViolated()) {
                return new Classification(result, level, true);
            }
            if (!result.isSatisfied()) {
                return new Classification(result, null, false);
            }
        }
        throw new IllegalStateException("serializable was violated");
    }

    /**
     * What {@code --classify} found.
     *
     * @param result   the result to print: at the weakest violated level, at serializable when none is,
     *                 or at the level left undecided
     * @param weakest  the weakest violated level, {@code null} when none is (or undecided)
     * @param decided  whether the classification is certain
     */
    private record Classification(CheckResult result, IsolationLevel weakest, boolean decided) {
    }

    /** Runs the command on its arguments (without the word {@code check}) and returns the exit status. */
    public int run(String[] args) {
        if (java.util.Arrays.asList(args).contains("--help") || java.util.Arrays.asList(args).contains("-h")) {
            out.println(USAGE);
            return EXIT_OK;
        }
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
                status = Math.max(status, invalid(input, options, e.getMessage()));
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
        } catch (OutOfMemoryError e) {
            // The check itself answers UNKNOWN when the heap runs out; this is reading a history
            // too large for the heap, or explaining one. What it built is garbage now.
            return invalid(path, options, path + ": ran out of memory (the maximum heap is "
                    + Limits.bytes(Runtime.getRuntime().maxMemory()) + "; a larger one, -Xmx, may do)");
        } catch (RuntimeException | Error e) {
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
            history = HistoryReader.of(format).read(path, warning -> err.println("isocheck: warning: " + warning));
        } catch (HistoryFormatException e) {
            return invalid(path, options, e.getMessage());
        } catch (IOException | UncheckedIOException e) {
            return invalid(path, options, path + ": cannot be read: " + describe(e));
        }
        long loadMillis = (System.nanoTime() - started) / 1_000_000;
        Classification classification = options.classify ? classify(history, options) : null;
        CheckResult result = classification != null ? classification.result() : check(history, options, options.level);
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
            if (classification != null && classification.decided()) {
                if (classification.weakest() == null) {
                    node.putNull("weakest_violated");
                } else {
                    node.put("weakest_violated", classification.weakest().cliName());
                }
            }
            out.println(node);
        } else {
            String classified = "";
            if (classification != null) {
                classified = classification.decided()
                        ? "\n  weakest level violated: " + (classification.weakest() == null ? "none (serializable)"
                                : classification.weakest().cliName() + weakerPassed(classification.weakest()))
                        : "\n  weakest level violated: not decided (" + verdict.level().cliName() + " was not)";
            }
            out.println(text(path, verdict, explanation) + classified + report.map(r -> "\n  report: " + r).orElse(""));
        }
        out.flush();
        if (verdict.isSatisfied()) {
            return EXIT_OK;
        }
        return verdict.isViolated() ? EXIT_VIOLATION : EXIT_INVALID;
    }

    private static String weakerPassed(IsolationLevel weakest) {
        int at = LADDER.indexOf(weakest);
        return at == 0 ? "" : " (satisfies " + LADDER.subList(0, at).stream().map(IsolationLevel::cliName)
                .collect(java.util.stream.Collectors.joining(", ")) + ")";
    }

    /**
     * Reports a history (or an argument) that got no verdict: one line on standard error and,
     * with {@code --json}, an object of its own with {@code error}, so that every argument and
     * every history found has its object.
     */
    private int invalid(Path path, Options options, String message) {
        err.println("isocheck: " + message);
        if (options.json) {
            ObjectNode node = JSON.createObjectNode();
            node.put("file", path.toString());
            node.put("level", options.level.cliName());
            node.put("verdict", "error");
            node.putNull("ok");
            node.put("error", message);
            out.println(node);
        }
        out.flush();
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
            return path + ": UNKNOWN " + u.reason() + "\n  not decided: whether the history is " + u.level().cliName()
                    + " (UNKNOWN is not a pass)";
        }
        List<String> caveats = ((Verdict.Satisfied) verdict).caveats();
        StringBuilder ok = new StringBuilder(path + (caveats.isEmpty() ? ": OK" : ": OK (with caveats)"));
        for (String caveat : caveats) {
            ok.append("\n  not checked: ").append(caveat);
        }
        return ok.toString();
    }

    /** The explanation's anomaly, with its familiar name: {@code G2-item (write skew)}. */
    private static String anomalyName(Explanation explanation) {
        if (explanation instanceof Explanation.Cycles cycles) {
            return cycles.anomaly() + cycles.familiarName().map(f -> " (" + f + ")").orElse("");
        }
        if (explanation instanceof Explanation.LikelyCase likely) {
            return anomalyName(likely.shown());
        }
        return ((Explanation.Screened) explanation).anomaly().type().shortName();
    }

    /**
     * Writes the HTML page of the explanation of a violation, naming the history it explains, as
     * {@code DIR/}{@link #reportName reportName(history)}: one page per history, even when
     * several files share a name.
     */
    private static Path writeReport(Path directory, Path history, Explanation explanation) throws IOException {
        Files.createDirectories(directory);
        Path page = directory.resolve(reportName(history));
        Files.writeString(page, new HtmlRenderer().render(explanation, history.toString()), StandardCharsets.UTF_8);
        return page;
    }

    /** Names longer than this (of the 255 bytes most file systems allow) end in a hash instead. */
    static final int MAX_REPORT_NAME = 200;

    /**
     * The file name of the report on {@code history}, a one-to-one encoding of its path as the
     * command names it ({@code a/b_c.jsonl} and {@code a_b/c.jsonl} never share one): letters,
     * digits, {@code '.'} and {@code '-'} stay; the separator {@code '/'} is {@code "__"}; every
     * other character ({@code '_'} included) is {@code '_'} and its four hexadecimal digits
     * ({@code "_005f"}); then {@code ".html"}. An underscore is followed by another or by four
     * hexadecimal digits, so the path can be read back. A name that would be longer than
     * {@value #MAX_REPORT_NAME} characters keeps its end and replaces the rest by a SHA-256 prefix
     * of the whole.
     */
    static String reportName(Path history) {
        String path = history.normalize().toString();
        String separator = history.getFileSystem().getSeparator();
        StringBuilder name = new StringBuilder(path.length() + 16);
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (path.startsWith(separator, i)) {
                name.append("__");
                i += separator.length() - 1;
            } else if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
                name.append(c);
            } else {
                name.append('_').append(String.format(java.util.Locale.ROOT, "%04x", (int) c));
            }
        }
        String encoded = name.toString();
        int room = MAX_REPORT_NAME - ".html".length();
        if (encoded.length() > room) {
            String hash = sha256(encoded).substring(0, 16);
            encoded = hash + "-" + encoded.substring(encoded.length() - (room - hash.length() - 1));
        }
        return encoded + ".html";
    }

    private static String sha256(String text) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static ObjectNode json(Path path, History history, Verdict verdict, Explanation explanation, long millis,
            long loadMillis) {
        ObjectNode node = JSON.createObjectNode();
        node.put("file", path.toString());
        node.put("level", verdict.level().cliName());
        node.put("verdict", verdict.isViolated() ? "violation" : verdict.isSatisfied() ? "ok" : "unknown");
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
            // Always there on a pass, empty when everything was checked.
            ((Verdict.Satisfied) verdict).caveats().forEach(node.putArray("caveats")::add);
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
            Optional<Duration> timeout, List<Path> inputs, boolean classify) {

        static Options parse(String[] args) {
            IsolationLevel level = IsolationLevel.SERIALIZABLE;
            Optional<HistoryFormat> format = Optional.empty();
            boolean json = false;
            boolean classify = false;
            boolean levelGiven = false;
            Optional<Path> report = Optional.empty();
            Optional<Duration> timeout = Optional.empty();
            List<Path> inputs = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                String inline = null;
                if (arg.startsWith("--") && arg.contains("=")) {
                    inline = arg.substring(arg.indexOf('=') + 1);
                    arg = arg.substring(0, arg.indexOf('='));
                }
                switch (arg) {
                    case "--level" -> {
                        level = IsolationLevel.fromName(inline != null ? inline : value(args, ++i, "--level"));
                        levelGiven = true;
                    }
                    case "--classify" -> classify = true;
                    case "--format" -> format = Optional.of(HistoryFormat.fromName(inline != null ? inline : value(args, ++i, "--format")));
                    case "--json" -> json = true;
                    case "--report" -> report = Optional.of(Path.of(inline != null ? inline : value(args, ++i, "--report")));
                    case "--timeout" -> timeout = Optional.of(duration(inline != null ? inline : value(args, ++i, "--timeout")));
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
            if (classify && levelGiven) {
                throw new IllegalArgumentException("--classify checks every level; it takes no --level");
            }
            return new Options(level, format, json, report, timeout, inputs, classify);
        }

        /** {@code --timeout}'s value: {@link dev.isocheck.internal.limit.DurationText}, as {@code isocheck.timeout} reads it. */
        static Duration duration(String text) {
            return dev.isocheck.internal.limit.DurationText.parse(text).orElseThrow(() -> new IllegalArgumentException(
                    "--timeout must be " + dev.isocheck.internal.limit.DurationText.FORMS + "; got '" + text + "'"));
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }
    }
}
