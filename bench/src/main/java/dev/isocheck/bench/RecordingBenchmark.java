package dev.isocheck.bench;

import dev.isocheck.Isocheck;
import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

/**
 * What recording costs an application: the throughput of a transfer workload on embedded
 * PostgreSQL with and without {@link Isocheck#record}, and the time {@code @SerializableCheck}
 * adds after a test body ({@link ExtensionTimeBenchmark}).
 *
 * <p>The workload: {@code threads} clients, each on its own connection, each running
 * {@code transfers} transactions at READ COMMITTED: read two balances by primary key, then move an
 * amount with two {@code UPDATE … SET balance = balance ± ?}, then commit, over {@code accounts}
 * accounts (many, so that lock waits do not dominate), the table created afresh before every run.
 * Rounds alternate plain, rewritten and recorded so that drift in a shared machine's load falls on
 * all alike; the median of each is compared. "Rewritten" is the plain client sending the statements
 * as the recorder rewrites them (the key added to the query's columns, the updates returning their
 * new and old rows, read by the client): what recording costs the database and the driver, apart
 * from the recorder's own work.
 *
 * <p>{@code java [-Dwal_level=logical] -cp bench/target/isocheck-bench.jar dev.isocheck.bench.RecordingBenchmark
 * [threads [transfers [rounds [accounts [warm-ups]]]]]} (default 16 200 7 1000 1): each warm-up
 * runs the workload plain and recorded once, unmeasured, so that the recorder's code is compiled
 * before it is timed.
 *
 * <p>{@code -Durl=jdbc:mariadb://host:port/database?user=...}: the same on a MariaDB or MySQL server
 * the caller started (MariaDB's driver is in the jar), where the recorder reads each UPDATE's row
 * back inside its transaction; "rewritten" is then the plain client sending that read back too.
 */
public final class RecordingBenchmark {

    private RecordingBenchmark() {
    }

    /** Runs the benchmark; arguments as in the class comment. */
    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        int transfers = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        int accounts = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
        int warmups = args.length > 4 ? Integer.parseInt(args[4]) : 1;
        System.out.printf("recording overhead: %d threads x %d transfers, %d accounts, %d rounds each way, %d cores%n",
                threads, transfers, accounts, rounds, Runtime.getRuntime().availableProcessors());
        // -Dwal_level=logical: the recorder takes the writes from logical decoding (a slot per
        // recording) instead of rewriting the statements.
        String walLevel = System.getProperty("wal_level", "replica");
        String url = System.getProperty("url");
        if (url == null) {
            System.out.printf("wal_level = %s: writes recorded %s%n", walLevel,
                    walLevel.equals("logical") ? "from logical decoding" : "from the statements");
        }
        try (EmbeddedPostgres postgres = url != null ? null
                : EmbeddedPostgres.builder().setServerConfig("wal_level", walLevel).start()) {
            DataSource plain = postgres != null ? postgres.getPostgresDatabase() : new UrlDataSource(url);
            mysql = url != null;
            if (mysql) {
                try (Connection c = plain.getConnection()) {
                    System.out.printf("server: %s %s%n", c.getMetaData().getDatabaseProductName(),
                            c.getMetaData().getDatabaseProductVersion());
                }
            }
            DataSource recorded = Isocheck.record(plain);
            createAccounts(plain, accounts);
            // Warm-up: the JIT, PostgreSQL's caches, and the recorder's primary-key cache.
            for (int w = 0; w < warmups; w++) {
                createAccounts(plain, accounts);
                run(plain, threads, transfers, accounts, 1, false);
                createAccounts(plain, accounts);
                recordedRun(recorded, threads, transfers, accounts, 2);
            }
            double[] plainRates = new double[rounds];
            double[] rewrittenRates = new double[rounds];
            double[] recordedRates = new double[rounds];
            double[] plainCpu = new double[rounds];
            double[] rewrittenCpu = new double[rounds];
            double[] recordedCpu = new double[rounds];
            run(plain, threads, transfers, accounts, 3, true);
            for (int round = 0; round < rounds; round++) {
                // A fresh table for every run: dead row versions pile up under updates and slow
                // PostgreSQL down several times over a few thousand transfers, which would charge
                // the later runs for the earlier ones.
                createAccounts(plain, accounts);
                Rate p = run(plain, threads, transfers, accounts, 100 + round, false);
                createAccounts(plain, accounts);
                Rate w = run(plain, threads, transfers, accounts, 100 + round, true);
                createAccounts(plain, accounts);
                Rate r = recordedRun(recorded, threads, transfers, accounts, 200 + round);
                plainRates[round] = p.perSecond();
                rewrittenRates[round] = w.perSecond();
                recordedRates[round] = r.perSecond();
                plainCpu[round] = p.cpuMicros();
                rewrittenCpu[round] = w.cpuMicros();
                recordedCpu[round] = r.cpuMicros();
                System.out.printf("  round %d: plain %8.0f tx/s %5.1f us, rewritten %8.0f tx/s %5.1f us, recorded %8.0f tx/s %5.1f us"
                        + " (client CPU per transaction)%n", round + 1, p.perSecond(), p.cpuMicros(), w.perSecond(), w.cpuMicros(),
                        r.perSecond(), r.cpuMicros());
            }
            double[] roundCosts = new double[rounds];
            for (int round = 0; round < rounds; round++) {
                roundCosts[round] = 1 - recordedRates[round] / plainRates[round];
            }
            double plainMedian = median(plainRates);
            double rewrittenMedian = median(rewrittenRates);
            double recordedMedian = median(recordedRates);
            System.out.printf("median: plain %.0f tx/s, rewritten %.0f tx/s, recorded %.0f tx/s: recording costs %.1f%% of"
                    + " throughput, of which the rewritten statements %.1f%%%n", plainMedian, rewrittenMedian, recordedMedian,
                    100 * (1 - recordedMedian / plainMedian), 100 * (1 - rewrittenMedian / plainMedian));
            // Each round runs the three ways back to back, so that a round's ratio is the least
            // touched by the drift of a shared machine's speed over a run.
            System.out.printf("median of the rounds' own costs (recorded against plain in the same round): %.1f%%%n",
                    100 * median(roundCosts));
            System.out.printf("client CPU per transaction (the clients' threads, medians): plain %.1f us, rewritten %.1f us,"
                    + " recorded %.1f us%n", median(plainCpu), median(rewrittenCpu), median(recordedCpu));
        }
    }

    /** Runs the workload recorded into a fresh recording, and checks that every transaction was kept. */
    private static Rate recordedRun(DataSource recorded, int threads, int transfers, int accounts, long seed)
            throws Exception {
        Recording recording = new Recording("RecordingBenchmark");
        Rate rate;
        try (Recording.Binding ignored = recording.bind()) {
            rate = run(recorded, threads, transfers, accounts, seed, false);
        }
        RecordedHistory history = recording.finish();
        if (writesFrom.isEmpty()) {
            writesFrom = history.writesFrom();
            System.out.println("writes: " + String.join("; ", writesFrom));
        }
        if (history.history().size() < threads * transfers || !history.notModelled().isEmpty()) {
            throw new IllegalStateException("the recording lost transactions or left tables out: "
                    + history.history().size() + " transactions, not modelled " + history.notModelled());
        }
        // With logical decoding, every transaction of the log must have been matched to the
        // recorded transaction that wrote it: none left in a session of its own.
        long unmatched = history.history().transactions().stream()
                .filter(t -> history.history().sessionOf(t).isImplicit()).count();
        if (unmatched > 0) {
            throw new IllegalStateException("the log's transactions were not all matched: " + unmatched + " unmatched; "
                    + history.writesFrom());
        }
        return rate;
    }

    /** How the first recorded run's writes were recorded, printed once. */
    private static java.util.List<String> writesFrom = java.util.List.of();

    /** Whether the server is MariaDB or MySQL ({@code -Durl}), not the embedded PostgreSQL. */
    private static boolean mysql;

    static void createAccounts(DataSource dataSource, int accounts) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS accounts");
            s.execute("CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL)");
            if (mysql) {
                for (int id = 1; id <= accounts; id++) {
                    s.addBatch("INSERT INTO accounts VALUES (" + id + ", 1000)");
                }
                s.executeBatch();
                return;
            }
            s.execute("INSERT INTO accounts SELECT g, 1000 FROM generate_series(1, " + accounts + ") g");
            s.execute("CHECKPOINT");
        }
    }

    /** Connections by URL alone, for a server the caller started. */
    private record UrlDataSource(String url) implements DataSource {

        @Override
        public Connection getConnection() throws SQLException {
            return java.sql.DriverManager.getConnection(url);
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return java.sql.DriverManager.getConnection(url, user, password);
        }

        @Override
        public java.io.PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(java.io.PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public java.util.logging.Logger getParentLogger() {
            return java.util.logging.Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }

    /**
     * Committed transactions per second, and the CPU time the client threads spent per transaction
     * (their own thread CPU time: the recorder's and the driver's work, not the server's, whatever
     * the cores).
     */
    record Rate(double perSecond, double cpuMicros) {
    }

    /**
     * Runs the workload on {@code threads} connections.
     *
     * @param rewritten whether to send the statements as the recorder rewrites them
     */
    static Rate run(DataSource dataSource, int threads, int transfers, int accounts, long seed, boolean rewritten)
            throws Exception {
        List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Connection c = dataSource.getConnection();
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            connections.add(c);
        }
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicLong cpuNanos = new java.util.concurrent.atomic.AtomicLong();
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Connection c = connections.get(i);
            SplittableRandom random = new SplittableRandom(seed * 1_000 + i);
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    long cpuStart = cpu.getCurrentThreadCpuTime();
                    for (int n = 0; n < transfers; n++) {
                        if (rewritten) {
                            rewrittenTransfer(c, random, accounts);
                        } else {
                            transfer(c, random, accounts);
                        }
                    }
                    cpuNanos.addAndGet(cpu.getCurrentThreadCpuTime() - cpuStart);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            worker.start();
            workers.add(worker);
        }
        long begin = System.nanoTime();
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        long elapsed = System.nanoTime() - begin;
        for (Connection c : connections) {
            c.close();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a client failed", failure.get());
        }
        return new Rate(threads * (double) transfers / (elapsed / 1e9), cpuNanos.get() / 1e3 / (threads * (double) transfers));
    }

    /** Two distinct accounts in id order, so that two transfers never deadlock, and an amount. */
    private record Accounts(int from, int to, int amount) {

        static Accounts draw(SplittableRandom random, int accounts) {
            int a = 1 + random.nextInt(accounts);
            int b = 1 + random.nextInt(accounts - 1);
            b = b >= a ? b + 1 : b;
            return new Accounts(Math.min(a, b), Math.max(a, b), 1 + random.nextInt(10));
        }
    }

    /**
     * {@code transactions} transfers among {@code accounts} accounts through {@code recorded}, from
     * {@code threads} clients at {@code isolation}, each retried on a serialization failure or
     * deadlock: the body the extension benchmarks time.
     */
    static void transfersFromClients(DataSource recorded, int transactions, int threads, int isolation,
            int accounts) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int share = transactions / threads + (i < transactions % threads ? 1 : 0);
                SplittableRandom random = new SplittableRandom(i);
                clients.add(pool.submit(() -> {
                    try (Connection c = recorded.getConnection()) {
                        c.setAutoCommit(false);
                        c.setTransactionIsolation(isolation);
                        for (int n = 0; n < share; n++) {
                            transferWithRetry(c, random, accounts);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client : clients) {
                client.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static void transferWithRetry(Connection c, SplittableRandom random, int accounts) throws SQLException {
        while (true) {
            try {
                transfer(c, random, accounts);
                return;
            } catch (SQLException e) {
                c.rollback();
                if (!"40001".equals(e.getSQLState()) && !"40P01".equals(e.getSQLState())) {
                    throw e;
                }
            }
        }
    }

    /** One transfer. */
    static void transfer(Connection c, SplittableRandom random, int accounts) throws SQLException {
        Accounts drawn = Accounts.draw(random, accounts);
        int from = drawn.from();
        int to = drawn.to();
        int amount = drawn.amount();
        try (PreparedStatement read = c.prepareStatement("SELECT balance FROM accounts WHERE id = ?")) {
            for (int id : new int[] {from, to}) {
                read.setInt(1, id);
                try (ResultSet rows = read.executeQuery()) {
                    rows.next();
                }
            }
        }
        try (PreparedStatement update = c.prepareStatement("UPDATE accounts SET balance = balance + ? WHERE id = ?")) {
            update.setInt(1, -amount);
            update.setInt(2, from);
            update.executeUpdate();
            update.setInt(1, amount);
            update.setInt(2, to);
            update.executeUpdate();
        }
        c.commit();
    }

    /**
     * {@link #transfer}, its statements as the recorder sends them to PostgreSQL 18, their rows
     * read; on MariaDB or MySQL, as the recorder sends them there: each UPDATE followed by the read
     * back of its row.
     */
    static void rewrittenTransfer(Connection c, SplittableRandom random, int accounts) throws SQLException {
        if (mysql) {
            rewrittenMysqlTransfer(c, random, accounts);
            return;
        }
        Accounts drawn = Accounts.draw(random, accounts);
        int from = drawn.from();
        int to = drawn.to();
        int amount = drawn.amount();
        try (PreparedStatement read = c.prepareStatement("SELECT balance, \"id\" AS isocheck_hidden_1 FROM accounts WHERE id = ?")) {
            for (int id : new int[] {from, to}) {
                read.setInt(1, id);
                try (ResultSet rows = read.executeQuery()) {
                    rows.next();
                    rows.getInt(1);
                    rows.getInt(2);
                }
            }
        }
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE accounts SET balance = balance + ? WHERE id = ?\nRETURNING new.*, old.*")) {
            for (int[] step : new int[][] {{-amount, from}, {amount, to}}) {
                update.setInt(1, step[0]);
                update.setInt(2, step[1]);
                try (ResultSet rows = update.executeQuery()) {
                    while (rows.next()) {
                        for (int column = 1; column <= 4; column++) {
                            rows.getObject(column);
                        }
                    }
                }
            }
        }
        c.commit();
    }

    private static void rewrittenMysqlTransfer(Connection c, SplittableRandom random, int accounts) throws SQLException {
        Accounts drawn = Accounts.draw(random, accounts);
        try (PreparedStatement read = c.prepareStatement("SELECT balance, `id` AS isocheck_hidden_1 FROM accounts WHERE id = ?")) {
            for (int id : new int[] {drawn.from(), drawn.to()}) {
                read.setInt(1, id);
                try (ResultSet rows = read.executeQuery()) {
                    rows.next();
                    rows.getInt(1);
                    rows.getInt(2);
                }
            }
        }
        try (PreparedStatement update = c.prepareStatement("UPDATE accounts SET balance = balance + ? WHERE id = ?");
             PreparedStatement back = c.prepareStatement("SELECT `id`, `balance` FROM accounts WHERE `id` IN (?) FOR UPDATE SKIP LOCKED")) {
            for (int[] step : new int[][] {{-drawn.amount(), drawn.from()}, {drawn.amount(), drawn.to()}}) {
                update.setInt(1, step[0]);
                update.setInt(2, step[1]);
                update.executeUpdate();
                back.setInt(1, step[1]);
                try (ResultSet rows = back.executeQuery()) {
                    while (rows.next()) {
                        rows.getObject(1);
                        rows.getObject(2);
                    }
                }
            }
        }
        c.commit();
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
