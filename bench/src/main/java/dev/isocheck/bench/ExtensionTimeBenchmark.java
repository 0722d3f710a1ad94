package dev.isocheck.bench;


import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.SerializableCheck;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The time {@code @SerializableCheck} adds after a test body: a test whose body runs
 * {@code transactions} recorded transfers on embedded PostgreSQL from 16 threads is run through the
 * JUnit Platform launcher, and the time from the body's last commit to JUnit's report of the test
 * is what a developer waits for the check (finishing the recording, checking, and for a violation
 * explaining and writing the report and the history).
 *
 * <p>Three bodies: at SERIALIZABLE, retrying on SQLSTATE 40001, whose history satisfies the level;
 * at READ COMMITTED, where reading a balance and then updating it lets another transfer in
 * between, so the history violates serializability and the failure is explained; and the same
 * READ COMMITTED body asserted at the level it runs at, {@code IsolationLevel.READ_COMMITTED},
 * which it satisfies.
 *
 * <p>{@code java [-Dwal_level=logical] -cp bench/target/isocheck-bench.jar dev.isocheck.bench.ExtensionTimeBenchmark
 * [transactions [runs [accounts]]]} (default 1000 7 1000; a few accounts make hot rows); prints each
 * run and the medians.
 */
public final class ExtensionTimeBenchmark {

    static final int THREADS = 16;
    /** Accounts transferred between: many by default; a few make hot rows that every thread rewrites. */
    static volatile int accounts = 1000;

    static volatile DataSource database;
    static volatile int transactions = 1000;
    static volatile long bodyEnded;

    private ExtensionTimeBenchmark() {
    }

    /** Runs the benchmark; arguments as in the class comment. */
    public static void main(String[] args) throws Exception {
        transactions = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        accounts = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
        Path reports = Files.createTempDirectory("isocheck-bench-reports");
        System.out.printf("time added after a body of %d recorded transactions (%d threads, %d accounts), %d runs, %d cores%n",
                transactions, THREADS, accounts, runs, Runtime.getRuntime().availableProcessors());
        // -Dwal_level=logical: the recorder takes the writes from logical decoding (a slot per
        // recording) instead of rewriting the statements.
        String walLevel = System.getProperty("wal_level", "replica");
        System.out.printf("wal_level = %s: writes recorded %s%n", walLevel,
                walLevel.equals("logical") ? "from logical decoding" : "from the statements");
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setServerConfig("wal_level", walLevel).start()) {
            database = postgres.getPostgresDatabase();
            RecordingBenchmark.createAccounts(database, accounts);
            for (String body : List.of("serializableWithRetry", "readCommitted", "readCommittedAsserted")) {
                time(body, 1, reports); // warm-up
                long[] added = new long[runs];
                for (int run = 0; run < runs; run++) {
                    added[run] = time(body, run + 2, reports);
                }
                long[] sorted = added.clone();
                java.util.Arrays.sort(sorted);
                System.out.printf("  %-22s median %5d ms after the body (runs %s)%n", body, sorted[runs / 2],
                        java.util.Arrays.toString(added));
            }
        }
    }

    /** Runs one test method; returns the milliseconds from its body's end to JUnit's report of it. */
    private static long time(String method, int run, Path reports) {
        bodyEnded = 0;
        LaunchedTest test = LaunchedTest.run(Bodies.class, method, Map.of("isocheck.report.dir", reports.toString()));
        if (bodyEnded == 0) {
            throw new IllegalStateException(method + " did not run: " + test.outcome());
        }
        if (run == 1) {
            System.out.printf("  %s: %s%n", method, test.outcome());
        }
        return (test.finishedNanos() - bodyEnded) / 1_000_000;
    }

    /** The test bodies the launcher runs. */
    @SerializableCheck
    public static class Bodies {

        @Test
        void serializableWithRetry() throws Exception {
            transfers(Connection.TRANSACTION_SERIALIZABLE);
        }

        @Test
        void readCommitted() throws Exception {
            transfers(Connection.TRANSACTION_READ_COMMITTED);
        }

        @Test
        @SerializableCheck(level = IsolationLevel.READ_COMMITTED)
        void readCommittedAsserted() throws Exception {
            transfers(Connection.TRANSACTION_READ_COMMITTED);
        }

        private static void transfers(int isolation) throws Exception {
            RecordingBenchmark.transfersFromClients(Isocheck.record(database), transactions, THREADS, isolation, accounts);
            bodyEnded = System.nanoTime();
        }
    }
}
