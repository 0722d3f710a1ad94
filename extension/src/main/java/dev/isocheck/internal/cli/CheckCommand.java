package dev.isocheck.internal.cli;

import dev.isocheck.CheckOptions;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Isocheck;
import dev.isocheck.format.HistoryFormat;
import dev.isocheck.history.History;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.internal.limit.DurationText;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.internal.text.Printable;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code isocheck check}: reads each history, checks it
 * ({@link Isocheck#check(History, IsolationLevel, CheckOptions)}), and prints one result per
 * history (see {@code docs/history-format.md}). Each violation is explained (the smallest cycles,
 * from the transactions the verdict names or a minimal set of transactions that still violates
 * the level) under its line, in the JSON ({@code anomaly}, {@code cycle}, {@code edges},
 * {@code evidence}), and with {@code --report} in a self-contained HTML page in {@code DIR}.
 *
 * <p>Every history gets an answer, and one history's trouble never stops the next: a read or a
 * check past {@code --timeout} (which covers both, {@link TimedCheck}) or over the memory budget
 * is {@code UNKNOWN} with the reason; a history with nothing to check, a heap exhausted all the
 * same, or a bug, is one line naming the history (and a JSON object with {@code error}), never a
 * stack trace and never a pass; the command goes on with the next history.
 *
 * <p>The options are picocli's ({@link Commands} assembles the command line); {@link #run(String[])}
 * runs this command alone, as tests and {@code SerializableCheckTests} do.
 */
@Command(name = "check", mixinStandardHelpOptions = true, versionProvider = Version.class, sortOptions = false,
        showEndOfOptionsDelimiterInUsageHelp = true,
        // By hand, to show that --level and --classify exclude each other, and to wrap between options.
        customSynopsis = {
            "isocheck check [-hV] [--level=LEVEL | --classify] [--format=FORMAT]",
            "                      [--timeout=DURATION] [--json] [--report=DIR]",
            "                      [--rounds [--round-size=N]",
            "                      [--follow [--follow-idle=DURATION]]] [--] FILE_OR_DIR..."},
        description = "Checks each history at an isolation level and prints one result per history: "
                + "OK, VIOLATION with its explanation, or UNKNOWN with the reason.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:Every history satisfies the level (with or without caveats).",
            "1:A history violates it.",
            "2:The command line or an input is invalid, a history has nothing to check, or one was not decided (UNKNOWN)."},
        footer = {"", "Verdicts go to standard output; errors, and warnings of what a reader did not understand, to "
                + "standard error. The history format and the output: docs/history-format.md."})
public final class CheckCommand implements Callable<Integer> {

    /** Every history satisfies the level. */
    public static final int EXIT_OK = 0;
    /** Some history violates the level. */
    public static final int EXIT_VIOLATION = 1;
    /** An input, or the command line, is invalid, or a history could not be decided or had nothing to check. */
    public static final int EXIT_INVALID = 2;

    @Option(names = "--level", paramLabel = "LEVEL", converter = LevelConverter.class, completionCandidates = LevelNames.class,
            description = "The level to check: serializable (default), strict-serializable, snapshot-isolation, prefix, "
                    + "causal, read-atomic, read-committed.")
    private IsolationLevel level;

    @Option(names = "--classify", arity = "0..1", paramLabel = "true|false",
            description = "Name the weakest level each history violates (of read-committed, read-atomic, causal, prefix, "
                    + "snapshot-isolation, serializable), explained at that level. Takes no --level.")
    private boolean classify;

    @Option(names = "--format", paramLabel = "FORMAT", converter = FormatConverter.class, completionCandidates = FormatNames.class,
            description = "The histories' format: jsonl, dbcop, cobra (a directory of *.log, read as the logs declare), "
                    + "cobra-unique or cobra-duplicates (force a reading). By default *.jsonl is jsonl and *.bincode dbcop, "
                    + "gzipped (*.gz) or not, and - is told by its content.")
    private HistoryFormat format;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Give up on a history DURATION after starting to read it (500ms, 30s, 5m, 1h, 1m30s; default "
                    + "10m): it is UNKNOWN, and the next history is checked.")
    private Duration timeout;

    @Option(names = "--json", arity = "0..1", paramLabel = "true|false",
            description = "Print one JSON object per history instead of text.")
    private boolean json;

    @Option(names = "--report", paramLabel = "DIR", converter = PathConverter.class,
            description = "Write an HTML page explaining each violation into DIR (created if needed).")
    private Path report;

    @Option(names = "--rounds", arity = "0..1", paramLabel = "true|false",
            description = "Check each history in rounds as it is read, in memory bounded by what later rounds can need "
                    + "(JSON Lines, every transaction timed, in the order they ended): strict serializability decided "
                    + "exactly; a weaker level satisfied when it holds, violated where a violation's own transactions "
                    + "show it. --timeout limits each round.")
    private boolean rounds;

    @Option(names = "--round-size", paramLabel = "N",
            description = "With --rounds: transactions read per round (default 100000).")
    private Integer roundSize;

    @Option(names = "--follow", arity = "0..1", paramLabel = "true|false",
            description = "With --rounds: read a file still being written as it grows, until it stops growing for "
                    + "--follow-idle.")
    private boolean follow;

    @Option(names = "--follow-idle", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "With --follow: how long a file may stop growing before its end is its end (default 10s).")
    private Duration followIdle;

    @Parameters(arity = "1..*", paramLabel = "FILE_OR_DIR",
            description = "A history file (*.jsonl, *.bincode, either possibly gzipped: *.gz), a directory to search for "
                    + "histories (or a Cobra directory of *.log), or - for standard input.")
    private List<String> inputs;

    @Spec
    private CommandSpec spec;

    private final PrintStream out;
    private final PrintStream err;
    private final InputStream standardInput;
    /** The options of every check, but the time limit ({@code --timeout}); may throw naming a bad property. */
    private final Supplier<CheckOptions> options;
    /** Decides instead of {@link Isocheck#check}, explaining as by default (tests); else {@code null}. */
    private final Checker checker;

    /** A command printing to these streams, checking with {@link CheckOptions#defaults()}. */
    public CheckCommand(PrintStream out, PrintStream err) {
        this(out, err, CheckOptions.defaults());
    }

    /**
     * A command printing to these streams, checking with {@code options} ({@code --timeout}
     * replaces their time limit).
     */
    public CheckCommand(PrintStream out, PrintStream err, CheckOptions options) {
        this(out, err, System.in, () -> options, null);
        Objects.requireNonNull(options, "options is null");
    }

    /** A command deciding with {@code checker}, and explaining as by default (tests). */
    CheckCommand(PrintStream out, PrintStream err, Checker checker) {
        this(out, err, CheckOptions.defaults(), checker);
    }

    /** A command deciding with {@code checker}, given the time {@code options} allow (tests). */
    CheckCommand(PrintStream out, PrintStream err, CheckOptions options, Checker checker) {
        this(out, err, System.in, () -> options, Objects.requireNonNull(checker, "checker is null"));
    }

    /**
     * The command {@link Main} runs: {@code options} reads the system properties when the command
     * runs, so that a bad one fails {@code check}, not {@code --version}.
     */
    CheckCommand(PrintStream out, PrintStream err, InputStream standardInput, Supplier<CheckOptions> options,
            Checker checker) {
        this.out = Objects.requireNonNull(out, "out is null");
        this.err = Objects.requireNonNull(err, "err is null");
        this.standardInput = Objects.requireNonNull(standardInput, "standardInput is null");
        this.options = Objects.requireNonNull(options, "options is null");
        this.checker = checker;
    }

    /** Runs the command on its arguments (without the word {@code check}) and returns the exit status. */
    public int run(String[] args) {
        String[] command = new String[args.length + 1];
        command[0] = "check";
        System.arraycopy(args, 0, command, 1, args.length);
        return Commands.of(this, out, err).execute(command);
    }

    @Override
    public Integer call() {
        Optional<String> contradiction = contradiction();
        if (contradiction.isPresent()) {
            throw UsageErrors.refusal(spec, contradiction.get());
        }
        return checkAll();
    }

    /**
     * Runs with {@code arguments} read by {@link PlainCheckLine} instead of picocli, as picocli
     * would run {@link #call()}: an exception is a last resort's one line ({@link Main#internalError}).
     * The caller has made sure that the arguments contradict nothing ({@link #contradiction(Arguments)}).
     */
    int callWith(Arguments arguments) {
        level = arguments.level();
        classify = arguments.classify();
        format = arguments.format();
        timeout = arguments.timeout();
        json = arguments.json();
        report = arguments.report();
        inputs = arguments.inputs();
        rounds = arguments.rounds().rounds();
        roundSize = arguments.rounds().size();
        follow = arguments.rounds().follow();
        followIdle = arguments.rounds().followIdle();
        try {
            return checkAll();
        } catch (Exception e) {
            return Main.internalError(e, err);
        }
    }

    /** The options and inputs as picocli set them (tests compare them with {@link PlainCheckLine}'s). */
    Arguments arguments() {
        return new Arguments(level, classify, format, timeout, json, report, inputs,
                new RoundOptions(rounds, roundSize, follow, followIdle));
    }

    private int checkAll() {
        CheckOptions checking;
        try {
            checking = options.get();
        } catch (IllegalArgumentException e) {
            // Before any history is read: every check would fail the same way.
            err.println("isocheck: " + Printable.escape(e.getMessage()));
            return EXIT_INVALID;
        }
        Duration limit = timeout != null ? timeout : checking.timeLimit();
        TimedCheck timed = new TimedCheck(limit, checking, checker, level(), classify);
        Inputs found = new Inputs(Optional.ofNullable(format), standardInput);
        int status = EXIT_OK;
        for (String input : inputs) {
            for (Inputs.Entry entry : found.of(input)) {
                status = Math.max(status, entry instanceof Inputs.Found f ? check(f.source(), timed)
                        : error(((Inputs.Problem) entry).name(), ((Inputs.Problem) entry).message()));
            }
        }
        return status;
    }

    private IsolationLevel level() {
        return level != null ? level : IsolationLevel.SERIALIZABLE;
    }

    /** What the options say together that none says alone, refused before anything is read: why, or empty. */
    private Optional<String> contradiction() {
        return contradiction(arguments());
    }

    /**
     * What {@code arguments} say together that none says alone, which the command refuses as a
     * usage error before anything is read: why, or empty when nothing.
     */
    static Optional<String> contradiction(Arguments arguments) {
        if (arguments.classify() && arguments.level() != null) {
            return Optional.of("--classify checks every level; it takes no --level");
        }
        RoundOptions rounds = arguments.rounds();
        if (rounds.rounds() && arguments.classify()) {
            return Optional.of("--classify checks a history whole; it takes no --rounds");
        }
        if (rounds.size() != null && rounds.size() < 1) {
            return Optional.of("--round-size takes a positive number of transactions, not " + rounds.size());
        }
        if (rounds.size() != null && !rounds.rounds()) {
            return Optional.of("--round-size is the size of a round of --rounds, which is not given");
        }
        if (rounds.follow() && !rounds.rounds()) {
            return Optional.of("--follow reads a history as it grows, which needs --rounds");
        }
        if (rounds.followIdle() != null && !rounds.follow()) {
            return Optional.of("--follow-idle is how long --follow waits, which is not given");
        }
        Path report = arguments.report();
        if (report != null && Files.exists(report) && !Files.isDirectory(report)) {
            return Optional.of("--report " + Printable.echo(report.toString())
                    + " is a file; --report names a directory for the pages (created if needed)");
        }
        long standardInputs = arguments.inputs().stream().filter("-"::equals).count();
        if (standardInputs > 1) {
            return Optional.of("- (standard input) is named " + standardInputs + " times; it can be read once");
        }
        HistoryFormat format = arguments.format();
        if (standardInputs == 1 && format != null && Inputs.isCobra(format)) {
            return Optional.of("--format " + format.cliName() + " reads a directory of logs, which standard input (-) cannot be");
        }
        return Optional.empty();
    }

    /**
     * The options and inputs of one command line, as picocli or {@link PlainCheckLine} read them.
     *
     * @param level    {@code --level}, or {@code null} when not given
     * @param classify {@code --classify}
     * @param format   {@code --format}, or {@code null} when not given
     * @param timeout  {@code --timeout}, or {@code null} when not given
     * @param json     {@code --json}
     * @param report   {@code --report}, or {@code null} when not given
     * @param inputs   the files, directories and {@code -} to check, in order
     * @param rounds   {@code --rounds} and the options that go with it
     */
    record Arguments(IsolationLevel level, boolean classify, HistoryFormat format, Duration timeout, boolean json,
            Path report, List<String> inputs, RoundOptions rounds) {

        /** Without {@code --rounds} and {@code --follow}, which {@link PlainCheckLine} leaves to picocli. */
        Arguments(IsolationLevel level, boolean classify, HistoryFormat format, Duration timeout, boolean json,
                Path report, List<String> inputs) {
            this(level, classify, format, timeout, json, report, inputs, RoundOptions.NONE);
        }
    }

    /**
     * {@code --rounds}, {@code --round-size}, {@code --follow} and {@code --follow-idle} (the last
     * three {@code null} or {@code false} when not given).
     */
    record RoundOptions(boolean rounds, Integer size, boolean follow, Duration followIdle) {

        /** None of them given. */
        static final RoundOptions NONE = new RoundOptions(false, null, false, null);
    }

    private int check(HistorySource source, TimedCheck timed) {
        Consumer<String> warnings = warning -> err.println("isocheck: warning: "
                + Printable.escape(Printable.bounded(warning, 2 * HistorySource.PROBLEM_LIMIT)));
        Outcome outcome;
        if (rounds) {
            outcome = new RoundsCheck(level(), roundSize != null ? roundSize : RoundsCheck.DEFAULT_ROUND_SIZE,
                    follow ? (followIdle != null ? followIdle : RoundsCheck.DEFAULT_FOLLOW_IDLE) : null, timed.options()).run(source, warnings, stats -> err.println(
                    "isocheck: " + Printable.escape(source.name()) + ": " + stats.rounds() + " rounds, " + stats.transactions()
                    + " transactions, at most " + stats.peakHeld() + " held at once"));
        } else {
            outcome = timed.run(source, warnings);
        }
        try {
            return print(source, outcome);
        } catch (RuntimeException | Error e) {
            return failed(source, e);
        }
    }

    private int print(HistorySource source, Outcome outcome) {
        if (outcome instanceof Outcome.Unreadable u) {
            return error(source.name(), u.message());
        }
        if (outcome instanceof Outcome.NothingToCheck n) {
            return error(source.name(), n.message());
        }
        if (outcome instanceof Outcome.Failed f) {
            return failed(source, f.error());
        }
        if (outcome instanceof Outcome.Abandoned a) {
            out.println(json ? JsonVerdicts.line(JsonVerdicts.abandoned(source, a)) : TextVerdicts.abandoned(source, a, classify));
            out.flush();
            return EXIT_INVALID;
        }
        Outcome.Checked checked = (Outcome.Checked) outcome;
        Optional<Path> page = Optional.empty();
        Optional<String> reportError = Optional.empty();
        if (report != null && checked.result().explanation().isPresent()) {
            try {
                page = Optional.of(ReportPages.write(report, source, checked.result().explanation().get()));
            } catch (IOException | UncheckedIOException | InvalidPathException e) {
                reportError = Optional.of(report + ": cannot write the report on " + source.name() + ": "
                        + HistorySource.describe(e));
            }
        }
        // The verdict first, always: a report that could not be written must not cost it.
        out.println(json ? JsonVerdicts.line(JsonVerdicts.checked(source, checked, page, reportError))
                : TextVerdicts.checked(source, checked, page));
        out.flush();
        reportError.ifPresent(error -> err.println("isocheck: " + Printable.escape(error)));
        int status = checked.result().isSatisfied() ? EXIT_OK : checked.result().isViolated() ? EXIT_VIOLATION : EXIT_INVALID;
        return reportError.isPresent() ? Math.max(status, EXIT_INVALID) : status;
    }

    private int failed(HistorySource source, Throwable e) {
        if (e instanceof OutOfMemoryError) {
            // The check itself answers UNKNOWN when the heap runs out; this is reading a history
            // too large for the heap, or explaining one. What it built is garbage now.
            return error(source.name(), source.name() + ": ran out of memory (the maximum heap is "
                    + Limits.bytes(Runtime.getRuntime().maxMemory()) + "; a larger one, -Xmx, may do)");
        }
        // A last resort: a bug must not print a stack trace, nor a verdict it did not reach.
        String message = e.getMessage() == null ? "" : Printable.bounded(e.getMessage().replaceAll("\\s+", " ").strip(),
                HistorySource.PROBLEM_LIMIT);
        return error(source.name(), source.name() + ": internal error: " + e.getClass().getName()
                + (message.isEmpty() ? "" : ": " + message) + " (please report)");
    }

    /**
     * Reports something that got no verdict: one line on standard error and, with {@code --json},
     * an object of its own with {@code error}, so that every argument and every history found has
     * its object.
     */
    private int error(String name, String message) {
        err.println("isocheck: " + Printable.escape(message));
        if (json) {
            out.println(JsonVerdicts.line(JsonVerdicts.error(name, level(), message)));
        }
        out.flush();
        return EXIT_INVALID;
    }

    /** {@code message} quoting {@code value}, the value {@linkplain Printable#echo bounded and escaped}. */
    private static String echoed(String message, String value) {
        return Printable.escape(message.replace(value, Printable.bounded(value, Printable.ECHO_LIMIT)));
    }

    /** {@code --level}'s value. */
    static final class LevelConverter implements CommandLine.ITypeConverter<IsolationLevel> {
        @Override
        public IsolationLevel convert(String value) {
            try {
                return IsolationLevel.fromName(value);
            } catch (IllegalArgumentException e) {
                throw new UsageErrors.BadValue(echoed(e.getMessage(), value));
            }
        }
    }

    /** {@code --format}'s value. */
    static final class FormatConverter implements CommandLine.ITypeConverter<HistoryFormat> {
        @Override
        public HistoryFormat convert(String value) {
            try {
                return HistoryFormat.fromName(value);
            } catch (IllegalArgumentException e) {
                throw new UsageErrors.BadValue(echoed(e.getMessage(), value));
            }
        }
    }

    /** The levels' names, for completion scripts. */
    static final class LevelNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(IsolationLevel.values()).map(IsolationLevel::cliName).iterator();
        }
    }

    /** The formats' names, for completion scripts. */
    static final class FormatNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(HistoryFormat.values()).map(HistoryFormat::cliName).iterator();
        }
    }

    /** {@code --timeout}'s value: {@link DurationText}, as {@code isocheck.timeout} reads it. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return DurationText.parse(value).orElseThrow(() -> new UsageErrors.BadValue(
                    "--timeout must be " + DurationText.FORMS + "; got '" + Printable.echo(value) + "'"));
        }
    }

    /** {@code --report}'s value. */
    static final class PathConverter implements CommandLine.ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            try {
                return Path.of(value);
            } catch (InvalidPathException e) {
                throw new UsageErrors.BadValue("--report " + Printable.echo(value) + " is not a valid path ("
                        + e.getReason() + ")");
            }
        }
    }
}
