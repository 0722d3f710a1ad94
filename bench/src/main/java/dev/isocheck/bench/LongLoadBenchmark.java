package dev.isocheck.bench;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * A long recorded load test checked in rounds while it runs ({@code isocheck.rounds}): one
 * {@code @SerializableCheck} test method, run through the JUnit Platform launcher as a build tool
 * runs it, whose threads make transfers, balance reads and hot-counter increments at SERIALIZABLE
 * on embedded PostgreSQL with {@code wal_level = logical} (the writes from its log) for the time
 * given. Every 30 s it prints the transactions committed so far and the live heap after a full
 * GC: flat after warm-up is what a long run needs.
 *
 * <p>{@code java -Xmx2g -cp bench/target/isocheck-bench.jar dev.isocheck.bench.LongLoadBenchmark
 * DURATION [THREADS [ROUND_SIZE [LEVEL]]]}, DURATION as {@code 10m} or {@code 90s}; THREADS 4 by
 * default, ROUND_SIZE 10000 ({@code isocheck.rounds = on}), LEVEL {@code strict-serializable}
 * ({@code isocheck.level}).
 */
public final class LongLoadBenchmark {

    private static final int ACCOUNTS = 1000;
    private static final int COUNTERS = 4;

    private LongLoadBenchmark() {
    }

    /** Runs the benchmark; arguments as in the class comment. */
    public static void main(String[] args) throws Exception {
        Duration duration = parse(args.length > 0 ? args[0] : "60s");
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        String roundSize = args.length > 2 ? args[2] : "on";
        String level = args.length > 3 ? args[3] : "strict-serializable";
        Path reports = Files.createTempDirectory("isocheck-long-load");
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setServerConfig("wal_level", "logical")
                .setServerConfig("max_replication_slots", "10").start()) {
            DataSource plain = postgres.getPostgresDatabase();
            try (Connection c = plain.getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL)");
                s.execute("INSERT INTO accounts SELECT g, 1000 FROM generate_series(1, " + ACCOUNTS + ") g");
                s.execute("CREATE TABLE counters (id INT PRIMARY KEY, n BIGINT NOT NULL)");
                s.execute("INSERT INTO counters SELECT g, 0 FROM generate_series(1, " + COUNTERS + ") g");
            }
            Body.plain = plain;
            Body.duration = duration;
            Body.threads = threads;
            System.out.printf(Locale.ROOT, "%s of load, %d threads, rounds of %s, at %s, -Xmx%d MB, %d cores%n", duration,
                    threads, roundSize, level, Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors());
            long started = System.nanoTime();
            LaunchedTest test = LaunchedTest.run(Body.class, "load", Map.of("isocheck.report.dir", reports.toString(),
                    "isocheck.rounds", roundSize, "isocheck.level", level));
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf(Locale.ROOT, "outcome: %s%n", test.outcome());
            System.out.printf(Locale.ROOT, "rounds: %s%n", test.entries().getOrDefault("isocheck.rounds", "?"));
            System.out.printf(Locale.ROOT, "not modelled: %s%n", test.entries().getOrDefault("isocheck.notModelled", "nothing"));
            System.out.printf(Locale.ROOT, "%d committed in %.0f s of load (%.0f/s); test ended %.1f s after the load did%n",
                    Body.committed.get(), duration.toSeconds() * 1.0, Body.committed.get() / (double) duration.toSeconds(),
                    (test.finishedNanos() - Body.loadEnded) / 1e9);
            System.out.printf(Locale.ROOT, "wall %.0f s%n", seconds);
        }
    }

    private static Duration parse(String text) {
        long n = Long.parseLong(text.substring(0, text.length() - 1));
        return switch (text.charAt(text.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            default -> throw new IllegalArgumentException("a duration such as 90s or 10m, not " + text);
        };
    }

    /** The test: a load for the configured time, checked at the level configured ({@code isocheck.level}). */
    @SerializableCheck
    public static class Body {

        static DataSource plain;
        static Duration duration;
        static int threads;
        static final AtomicLong committed = new AtomicLong();
        static volatile long loadEnded;

        /** The load. */
        @org.junit.jupiter.api.Test
        public void load() throws Exception {
            DataSource recorded = Isocheck.record(plain);
            long deadline = System.nanoTime() + duration.toNanos();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try (HeapSampler heap = new HeapSampler()) {
                List<Future<?>> running = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Random random = new Random(t);
                    running.add(pool.submit(() -> {
                        try (Connection c = recorded.getConnection()) {
                            c.setAutoCommit(false);
                            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                            while (System.nanoTime() < deadline) {
                                if (transaction(c, random)) {
                                    committed.incrementAndGet();
                                }
                            }
                        }
                        return null;
                    }));
                }
                long start = System.nanoTime();
                long next = start;
                while (System.nanoTime() < deadline) {
                    next += 30_000_000_000L;
                    Thread.sleep(Math.max(1, Math.min(next, deadline) - System.nanoTime()) / 1_000_000);
                    System.gc();
                    System.out.printf(Locale.ROOT, "  %4.0f s: %9d committed, live heap after a full GC %5.0f MB%n",
                            (System.nanoTime() - start) / 1e9, committed.get(), heap.used() / 1e6);
                }
                for (Future<?> f : running) {
                    f.get();
                }
            } finally {
                pool.shutdown();
                loadEnded = System.nanoTime();
            }
        }

        /** One transaction, retried no further: whether it committed. */
        private static boolean transaction(Connection c, Random random) throws SQLException {
            try {
                int kind = random.nextInt(10);
                if (kind < 5) {
                    int from = 1 + random.nextInt(ACCOUNTS);
                    int to = 1 + (from + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                    int amount = 1 + random.nextInt(10);
                    set(c, "accounts", "balance", from, read(c, "accounts", "balance", from) - amount);
                    set(c, "accounts", "balance", to, read(c, "accounts", "balance", to) + amount);
                } else if (kind < 8) {
                    for (int i = 0; i < 3; i++) {
                        read(c, "accounts", "balance", 1 + random.nextInt(ACCOUNTS));
                    }
                } else {
                    int counter = 1 + random.nextInt(COUNTERS);
                    set(c, "counters", "n", counter, read(c, "counters", "n", counter) + 1);
                }
                c.commit();
                return true;
            } catch (SQLException e) {
                c.rollback();
                if (!e.getSQLState().startsWith("40")) {
                    throw e;
                }
                return false;
            }
        }

        private static long read(Connection c, String table, String column, int id) throws SQLException {
            try (PreparedStatement p = c.prepareStatement("SELECT " + column + " FROM " + table + " WHERE id = ?")) {
                p.setInt(1, id);
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        }

        private static void set(Connection c, String table, String column, int id, long value) throws SQLException {
            try (PreparedStatement p = c.prepareStatement("UPDATE " + table + " SET " + column + " = ? WHERE id = ?")) {
                p.setLong(1, value);
                p.setInt(2, id);
                p.executeUpdate();
            }
        }
    }
}
