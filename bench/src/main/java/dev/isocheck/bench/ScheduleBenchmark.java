package dev.isocheck.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.InterleavingTest;
import dev.isocheck.Isocheck;
import dev.isocheck.SerializableCheck;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * What {@code @InterleavingTest} costs and finds: two-request tests on embedded PostgreSQL, each
 * thread a transaction of a few statements written plainly (no latch), run through the JUnit
 * Platform launcher with the default budget. For each body: in which schedule the anomaly was
 * found (or that every schedule passed), the time of one schedule (an invocation, from JUnit's
 * start of it to its end: {@code @BeforeEach} resetting the rows, the gated body, the check), and
 * the time of the whole test (every schedule and replay).
 *
 * <p>Each body runs twice over: on the driver's {@code DataSource}, which opens a connection per
 * {@code getConnection} (a PostgreSQL backend started each time, tens of milliseconds), and on a
 * HikariCP pool of 4, as most applications run.
 *
 * <p>{@code java [-Dsources=driver|pool] [-Dbodies=NAME,...] [-Dorders=true] -cp bench/target/isocheck-bench.jar
 * dev.isocheck.bench.ScheduleBenchmark [runs]} (default 10); prints each body's medians.
 */
public final class ScheduleBenchmark {

    static volatile DataSource database;

    private ScheduleBenchmark() {
    }

    /** Runs the benchmark; arguments as in the class comment. */
    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        Path reports = Files.createTempDirectory("isocheck-bench-reports");
        System.out.printf("@InterleavingTest, two requests, default budget, %d runs of each test, %d cores%n", runs,
                Runtime.getRuntime().availableProcessors());
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            DataSource plain = postgres.getPostgresDatabase();
            com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
            config.setDataSource(plain);
            config.setMaximumPoolSize(4);
            try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config)) {
                List<DataSource> sources = switch (System.getProperty("sources", "both")) {
                    case "driver" -> List.of(plain);
                    case "pool" -> List.of(pool);
                    default -> List.of(plain, pool);
                };
                for (DataSource source : sources) {
                    database = source;
                    System.out.println(source == plain ? "a connection opened per request (the driver's DataSource):"
                            : "a pool of 4 (HikariCP):");
                    bodies(runs, reports);
                }
            }
        }
    }

    private static void bodies(int runs, Path reports) {
        List<String> bodies = List.of("lostUpdateAtReadCommitted", "writeSkewAtRepeatableRead", "writeSkewCodeAtSerializable",
                "incrementInPlaceAtReadCommitted");
        for (String body : System.getProperty("bodies") == null ? bodies : List.of(System.getProperty("bodies").split(","))) {
            run(body, reports); // warm-up
            List<Result> results = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                results.add(run(body, reports));
            }
            long[] total = results.stream().mapToLong(Result::totalMillis).sorted().toArray();
            long[] schedule = results.stream().flatMapToLong(r -> Arrays.stream(r.scheduleMillis())).sorted().toArray();
            long[] found = results.stream().mapToLong(Result::foundAt).sorted().toArray();
            long foundRuns = results.stream().filter(r -> r.foundAt() > 0).count();
            System.out.printf("  %-32s found in %d of %d runs%s; schedules per run %s; one schedule: median %d ms;"
                            + " the whole test: median %d ms (min %d, max %d)%n", body, foundRuns, runs,
                    foundRuns == 0 ? "" : " (schedule: median " + found[found.length - (int) foundRuns + (int) foundRuns / 2]
                            + ", max " + found[found.length - 1] + ")",
                    results.stream().map(r -> r.scheduleMillis().length).distinct().sorted().toList(),
                    schedule[schedule.length / 2], total[total.length / 2], total[0], total[total.length - 1]);
        }
    }

    /**
     * One run of a test.
     *
     * @param totalMillis    the test template, start to end
     * @param scheduleMillis each invocation's time
     * @param foundAt        the number of the first invocation that failed, 0 when none did
     */
    record Result(long totalMillis, long[] scheduleMillis, long foundAt) {
    }

    private static Result run(String method, Path reports) {
        Map<String, Long> started = new ConcurrentHashMap<>();
        List<Long> schedules = new ArrayList<>();
        long[] total = new long[1];
        long[] found = new long[1];
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void reportingEntryPublished(TestIdentifier test, org.junit.platform.engine.reporting.ReportEntry entry) {
                if (Boolean.getBoolean("orders") && entry.getKeyValuePairs().containsKey("isocheck.schedule")) {
                    System.out.println("    " + test.getDisplayName() + ": " + entry.getKeyValuePairs().get("isocheck.schedule"));
                }
            }

            @Override
            public void executionStarted(TestIdentifier test) {
                started.put(test.getUniqueId(), System.nanoTime());
            }

            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                long millis = (System.nanoTime() - started.get(test.getUniqueId())) / 1_000_000;
                if (test.isTest()) {
                    schedules.add(millis);
                    if (Boolean.getBoolean("orders")) {
                        System.out.println("    " + test.getDisplayName() + ": " + millis + " ms, " + result.getStatus());
                    }
                    if (result.getStatus() == TestExecutionResult.Status.FAILED && found[0] == 0) {
                        found[0] = schedules.size();
                    }
                    if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
                        throw new IllegalStateException(method + ": " + result.getThrowable().orElseThrow());
                    }
                } else if (test.getUniqueId().contains("test-template:")
                        && !test.getUniqueId().contains("test-template-invocation:")) {
                    total[0] = millis;
                }
            }
        };
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectMethod(Bodies.class, method))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .build();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, listener);
        return new Result(total[0], schedules.stream().mapToLong(Long::longValue).toArray(), found[0]);
    }

    /** The test bodies the launcher runs. */
    @SerializableCheck
    public static class Bodies {

        final DataSource recorded = Isocheck.record(database);

        @BeforeEach
        void freshRows() throws SQLException {
            try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS counter, doctors");
                s.execute("CREATE TABLE counter (id INT PRIMARY KEY, n INT NOT NULL)");
                s.execute("INSERT INTO counter VALUES (1, 0)");
                s.execute("CREATE TABLE doctors (name TEXT PRIMARY KEY, on_call BOOLEAN NOT NULL)");
                s.execute("INSERT INTO doctors VALUES ('alice', true), ('bob', true)");
            }
        }

        @InterleavingTest
        void lostUpdateAtReadCommitted() throws Exception {
            twoAtOnce(() -> readThenWriteBack(Connection.TRANSACTION_READ_COMMITTED),
                    () -> readThenWriteBack(Connection.TRANSACTION_READ_COMMITTED));
        }

        @InterleavingTest
        void writeSkewAtRepeatableRead() throws Exception {
            twoAtOnce(() -> goOffCall("alice", Connection.TRANSACTION_REPEATABLE_READ),
                    () -> goOffCall("bob", Connection.TRANSACTION_REPEATABLE_READ));
        }

        @InterleavingTest
        void writeSkewCodeAtSerializable() throws Exception {
            twoAtOnce(() -> goOffCall("alice", Connection.TRANSACTION_SERIALIZABLE),
                    () -> goOffCall("bob", Connection.TRANSACTION_SERIALIZABLE));
        }

        @InterleavingTest
        void incrementInPlaceAtReadCommitted() throws Exception {
            twoAtOnce(this::incrementInPlace, this::incrementInPlace);
        }

        private static void twoAtOnce(Work a, Work b) throws Exception {
            List<Exception> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread first = new Thread(() -> runOrNote(a, failures), "request-a");
            Thread second = new Thread(() -> runOrNote(b, failures), "request-b");
            first.start();
            second.start();
            first.join();
            second.join();
            if (!failures.isEmpty()) {
                throw failures.get(0);
            }
        }

        private static void runOrNote(Work work, List<Exception> failures) {
            try {
                work.run();
            } catch (Exception e) {
                failures.add(e);
            }
        }

        private void readThenWriteBack(int isolation) throws SQLException {
            try (Connection c = recorded.getConnection()) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(isolation);
                int n;
                try (PreparedStatement select = c.prepareStatement("SELECT n FROM counter WHERE id = 1");
                     ResultSet rows = select.executeQuery()) {
                    rows.next();
                    n = rows.getInt(1);
                }
                try (PreparedStatement update = c.prepareStatement("UPDATE counter SET n = ? WHERE id = 1")) {
                    update.setInt(1, n + 1);
                    update.executeUpdate();
                }
                c.commit();
            }
        }

        private void incrementInPlace() throws SQLException {
            try (Connection c = recorded.getConnection()) {
                c.setAutoCommit(false);
                try (PreparedStatement update = c.prepareStatement("UPDATE counter SET n = n + 1 WHERE id = 1")) {
                    update.executeUpdate();
                }
                c.commit();
            }
        }

        /** Goes off call if another doctor stays on; retries on a serialization failure. */
        private void goOffCall(String doctor, int isolation) throws SQLException {
            while (true) {
                try (Connection c = recorded.getConnection()) {
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(isolation);
                    try {
                        int onCall;
                        try (PreparedStatement count = c.prepareStatement("SELECT count(*) FROM doctors WHERE on_call");
                             ResultSet rows = count.executeQuery()) {
                            rows.next();
                            onCall = rows.getInt(1);
                        }
                        if (onCall >= 2) {
                            try (PreparedStatement update = c.prepareStatement("UPDATE doctors SET on_call = false WHERE name = ?")) {
                                update.setString(1, doctor);
                                update.executeUpdate();
                            }
                        }
                        c.commit();
                        return;
                    } catch (SQLException e) {
                        c.rollback();
                        if (!"40001".equals(e.getSQLState())) {
                            throw e;
                        }
                    }
                }
            }
        }

        /** A request. */
        @FunctionalInterface
        interface Work {

            void run() throws Exception;
        }
    }
}
