package dev.isocheck.examples;

import dev.isocheck.GpuMode;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.internal.junit.Configuration;
import dev.isocheck.internal.junit.TestCheck;
import dev.isocheck.internal.junit.TestCheck.Outcome;
import dev.isocheck.internal.junit.Undecided;
import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import dev.isocheck.internal.recording.SideSessions;
import dev.isocheck.internal.schedule.Gate;
import dev.isocheck.internal.schedule.Strategy;
import dev.isocheck.internal.schedule.Timing;
import dev.isocheck.internal.schedule.Trace;
import dev.isocheck.examples.bank.Bank;
import dev.isocheck.examples.bank.FraudScreen;
import dev.isocheck.examples.rota.Pager;
import dev.isocheck.examples.rota.Rota;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The demo the README starts with: two small applications, {@link Bank} and {@link Rota}, run
 * against a real PostgreSQL at READ COMMITTED, REPEATABLE READ and SERIALIZABLE, two requests at
 * once each time. The requests are started plainly, with no latch or delay; isocheck's gate lets
 * them through statement by statement in turn (round robin), as the first schedule of an
 * {@code @InterleavingTest} does, so that they overlap on every run. Their transactions are
 * recorded as {@code @SerializableCheck} records a test's, checked at serializable, and reported
 * as a failing test would report them; the HTML reports and the recorded histories go into a
 * directory, by default {@code target/isocheck-demo}.
 *
 * <p>Usage: {@code java -jar examples/target/isocheck-demo.jar [DIRECTORY]}
 */
public final class Demo {

    private final PrintStream out;
    private final Path directory;
    private final Set<String> explained = new HashSet<>();
    private int violations;
    /** The order the gate let the last run's statements through, for the verdict's lines. */
    private String order = "";

    private Demo(PrintStream out, Path directory) {
        this.out = out;
        this.directory = directory;
    }

    /**
     * Runs the demo.
     *
     * @param args an optional directory for the reports and histories
     */
    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args.length > 0 ? args[0] : "target/isocheck-demo").toAbsolutePath().normalize();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try {
            run(out, directory);
        } finally {
            EmbeddedPostgres.stop();
        }
    }

    /**
     * Runs the demo on the JVM's embedded PostgreSQL (started if it is not), printing to
     * {@code out} and writing the files into {@code directory}.
     *
     * @return how many of the six runs violate serializable
     */
    static int run(PrintStream out, Path directory) throws Exception {
        Demo demo = new Demo(out, directory);
        demo.run();
        return demo.violations;
    }

    private void run() throws Exception {
        out.println("""
                isocheck demo: two small applications against a real PostgreSQL, each run at three isolation
                levels with two requests at once, which isocheck's gate lets through one statement of each in
                turn (round robin), as the first schedule of an @InterleavingTest does. Every run is recorded
                as @SerializableCheck records a test and checked at serializable: what the failure would say
                in a test is printed below.
                """);
        out.print("starting PostgreSQL (embedded; the first start unpacks it) ... ");
        out.flush();
        long started = System.nanoTime();
        DataSource postgres = EmbeddedPostgres.dataSource();
        out.printf(Locale.ROOT, "started in %.1f s%n%n", (System.nanoTime() - started) / 1e9);
        Files.createDirectories(directory);
        bank(postgres);
        rota(postgres);
        out.println("Reports (.html) and recorded histories (.jsonl): " + directory);
        out.println("Check a history again, offline, at another level (PostgreSQL's REPEATABLE READ is snapshot isolation):");
        out.println("  java -jar extension/target/isocheck.jar check --level snapshot-isolation "
                + directory.resolve("bank-repeatable-read.jsonl"));
        out.println();
        out.println(violations == 0
                ? "No anomaly: the requests did not overlap as the gate meant them to (see the orders above)."
                : violations + " of 6 runs violate serializable. In a test suite, each would be a failed test.");
    }

    private void bank(DataSource postgres) throws Exception {
        out.println("""
                The bank. Alice may overdraw one account as long as her accounts together stay at or above 0.
                She has 50 in checking and 50 in savings, and pays 80 from each at the same moment.
                """);
        for (IsolationSetting isolation : IsolationSetting.values()) {
            Bank.createSchema(postgres);
            Bank setUp = new Bank(new Transactions(postgres, isolation), FraudScreen.NONE);
            setUp.open("alice-checking", "alice", 50);
            setUp.open("alice-savings", "alice", 50);
            setUp.open("bob", "bob", 0);
            setUp.open("carol", "carol", 0);

            Transactions transactions = new Transactions(Isocheck.record(postgres), isolation);
            Bank bank = new Bank(transactions, FraudScreen.NONE);
            Recording recording = new Recording("the bank at " + isolation.sqlName());
            List<Throwable> failures = inTurn(recording, List.of(
                    new Concurrently.Task("pay-bob", () -> { bank.transfer("alice-checking", "bob", 80); return null; }),
                    new Concurrently.Task("pay-carol", () -> { bank.transfer("alice-savings", "carol", 80); return null; })));
            long total = setUp.balancesOf("alice").values().stream().mapToLong(Long::longValue).sum();
            String happened = outcome(failures, transactions.retries(), "payment") + "; Alice's accounts total " + total
                    + (total < 0 ? " (the rule is broken)" : "");
            check("bank", isolation, recording, happened);
        }
    }

    private void rota(DataSource postgres) throws Exception {
        out.println("""
                The on-call rota. A shift keeps at least one doctor on call: a doctor may go off call only while
                another is on. Alice and Bob, both on call, ask to go off at the same moment.
                """);
        for (IsolationSetting isolation : IsolationSetting.values()) {
            Rota.createSchema(postgres);
            Rota setUp = new Rota(new Transactions(postgres, isolation), Pager.NONE);
            setUp.addOnCall("alice", 1);
            setUp.addOnCall("bob", 1);

            Transactions transactions = new Transactions(Isocheck.record(postgres), isolation);
            Rota rota = new Rota(transactions, Pager.NONE);
            Recording recording = new Recording("the rota at " + isolation.sqlName());
            List<Throwable> failures = inTurn(recording, List.of(
                    new Concurrently.Task("alice", () -> { rota.goOffCall("alice", 1); return null; }),
                    new Concurrently.Task("bob", () -> { rota.goOffCall("bob", 1); return null; })));
            List<String> onCall = setUp.onCall(1);
            String happened = outcome(failures, transactions.retries(), "request") + "; on call now: "
                    + (onCall.isEmpty() ? "nobody (the rule is broken)" : String.join(", ", onCall));
            check("rota", isolation, recording, happened);
        }
    }

    /**
     * Runs the tasks at once, recorded into {@code recording}, their threads held at isocheck's gate
     * and let through one statement of each in turn; the order they went in is printed with the verdict.
     */
    private List<Throwable> inTurn(Recording recording, List<Concurrently.Task> tasks) throws InterruptedException {
        List<Throwable> failures;
        Trace trace;
        try (Recording.Binding bound = recording.bind(); SideSessions sessions = new SideSessions()) {
            Gate gate = Gate.open(recording, new Strategy.RoundRobin("A"), Timing.defaults(), sessions);
            try {
                failures = Concurrently.run(tasks);
            } finally {
                trace = gate.close();
            }
        }
        order = trace.order() + " " + trace.legend();
        return failures;
    }

    /** What the application saw: which requests went through, which were refused, and the retries. */
    private static String outcome(List<Throwable> failures, int retries, String what) {
        long refused = failures.stream().filter(f -> f != null).count();
        String retried = retries == 0 ? "" : ", after " + retries + (retries == 1 ? " retry" : " retries") + " on SQLSTATE 40001";
        if (refused == 0) {
            return "both " + what + "s went through" + retried;
        }
        Throwable first = failures.stream().filter(f -> f != null).findFirst().orElseThrow();
        return refused + " " + what + " refused (" + first.getMessage() + ")" + retried;
    }

    /** Checks what was recorded at serializable and prints the verdict, as a failing test would show it. */
    private void check(String application, IsolationSetting isolation, Recording recording, String happened) throws IOException {
        RecordedHistory recorded = recording.finish();
        String fileName = application + "-" + isolation.name().toLowerCase(Locale.ROOT).replace('_', '-');
        Configuration configuration = new Configuration(IsolationLevel.SERIALIZABLE, directory, Duration.ofSeconds(60),
                Undecided.FAIL, GpuMode.AUTO);
        Outcome outcome = new TestCheck(configuration).check(recording.name(), fileName, recorded, IsolationLevel.SERIALIZABLE);
        out.printf("  %-16s %s%n", isolation.sqlName(), happened);
        out.printf("  %-16s statements in the order %s%n", "", order);
        if (outcome instanceof Outcome.Satisfied) {
            // The check writes files only for a failure; the demo keeps every history.
            new JsonlHistoryWriter().write(recorded.history(), directory.resolve(fileName + ".jsonl"));
            out.printf("  %-16s isocheck: OK, serializable (%d transactions recorded)%n%n", "", recorded.history().size());
        } else if (outcome instanceof Outcome.Violated violated) {
            violations++;
            String anomaly = violated.result().explanationText().orElseThrow().lines().findFirst().orElse("");
            out.printf("  %-16s isocheck: VIOLATION, %s%n", "", anomaly);
            if (explained.add(application)) {
                out.println();
                out.println(indent(violated.message(), "      | "));
            } else {
                out.printf("  %-16s report: %s%n%n", "", violated.reportFile());
            }
        } else if (outcome instanceof Outcome.Undecided undecided) {
            out.printf("  %-16s isocheck: UNKNOWN, %s%n%n", "", undecided.reason());
        }
    }

    private static String indent(String text, String prefix) {
        StringBuilder indented = new StringBuilder();
        text.lines().forEach(line -> indented.append(prefix).append(line).append('\n'));
        return indented.toString();
    }
}
