package dev.isocheck.bench;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * Seeded generators of large committed histories that are serializable, and strict serializable,
 * by construction, shaped like the workloads the papers benchmark on: Cobra's BlindW family, TPC-C
 * and C-Twitter, and VeriStrong's YCSB-like generator with duplicate values.
 *
 * <p>Every generator runs its transactions one at a time against an in-memory key-value map, in a
 * random interleaving of its sessions, and records them with start and end times consistent with
 * that order (see {@link BenchHistory#serialOrder()} and {@link Timing}). Keys are strings, values integers. The same
 * arguments always give the same history. Any workload can carry one {@link InjectedAnomaly} on
 * fresh keys, so anomalous histories of the same shape can be timed too.
 *
 * <pre>{@code
 * BenchHistory clean = Workloads.generate(Workloads.Kind.BLINDW_RW, 10_000, 1);
 * BenchHistory skewed = Workloads.generate(Workloads.Kind.TPCC, 10_000, 1, InjectedAnomaly.WRITE_SKEW);
 * }</pre>
 */
public final class Workloads {

    /** BlindW: keys {@code k0 … k9999}, all starting at 0 (Cobra §6, VeriStrong §7.2). */
    public static final int BLINDW_KEYS = 10_000;
    /** BlindW: Cobra's 24 clients. */
    public static final int BLINDW_SESSIONS = 24;
    /** BlindW: every transaction reads, or writes, this many distinct keys. */
    public static final int BLINDW_OPS = 8;

    /** YCSB-like: VeriStrong's default 20 sessions. */
    public static final int YCSB_SESSIONS = 20;
    /** YCSB-like: operations per transaction, the centre of VeriStrong's sweeps. */
    public static final int YCSB_OPS = 15;
    /** YCSB-like: keys {@code k0 … k4999}, all starting at 0. */
    public static final int YCSB_KEYS = 5_000;
    /** YCSB-like: keys {@code k0 … k2499} (half) are written values from {@code [0, YCSB_DUPLICATE_DOMAIN)}. */
    public static final int YCSB_DUPLICATE_KEYS = YCSB_KEYS / 2;
    /** YCSB-like: how many distinct values the duplicate-value keys take. */
    public static final int YCSB_DUPLICATE_DOMAIN = 5;

    /** TPC-C-like: warehouses. */
    public static final int TPCC_WAREHOUSES = 2;
    /** TPC-C-like: districts per warehouse. */
    public static final int TPCC_DISTRICTS = 10;
    /** TPC-C-like: customers per district (TPC-C has 3000; fewer keeps hot customers at 10k transactions). */
    public static final int TPCC_CUSTOMERS = 300;
    /** TPC-C-like: items, each with a stock row per warehouse (TPC-C has 100,000). */
    public static final int TPCC_ITEMS = 1_000;
    /** TPC-C-like and Twitter-like: sessions, as Cobra's 24 clients. */
    public static final int APP_SESSIONS = 24;

    /** BlindW-Pred: the table. */
    public static final String PRED_TABLE = "r";
    /** BlindW-Pred: {@code v1} and {@code v2} are drawn from {@code [0, PRED_DOMAIN)}. */
    public static final long PRED_DOMAIN = 1_000_000;
    /** BlindW-Pred: how many values a range covers (about ten rows of 10k). */
    public static final long PRED_WIDTH = 1_000;
    /** BlindW-Pred: predicate reads per reading transaction. */
    public static final int PRED_READS = 2;

    /** Hot keys: keys {@code h0 … h49}, rewritten by everyone. */
    public static final int HOT_KEYS = 50;
    /** Hot keys: the values written, {@code [0, HOT_DOMAIN)}, so that most writes repeat a value. */
    public static final int HOT_DOMAIN = 4;
    /** Hot keys: sessions, as a test's thread pool. */
    public static final int HOT_SESSIONS = 16;
    /** Hot keys: at most this many operations per transaction (at least one). */
    public static final int HOT_OPS = 6;

    /** Twitter-like: users, as Cobra's C-Twitter. */
    public static final int TWITTER_USERS = 1_000;
    /** Twitter-like: whom each user follows at the start. */
    public static final int TWITTER_INITIAL_FOLLOWS = 10;
    /** Twitter-like: the Zipf exponent of who posts and who is followed. */
    public static final double TWITTER_ZIPF = 0.99;

    private Workloads() {
    }

    /** The workloads there are. */
    public enum Kind {

        /** Cobra's BlindW-RM: 90% read-only and 10% write-only transactions of 8 operations. */
        BLINDW_RH("blindw-rh", "BlindW read-heavy: 90% read-only, 10% write-only txns of 8 ops, 10k keys, 24 sessions, unique values"),
        /** Cobra's BlindW-RW: half read-only, half write-only. */
        BLINDW_RW("blindw-rw", "BlindW: 50% read-only, 50% write-only txns of 8 ops, 10k keys, 24 sessions, unique values"),
        /** Cobra's BlindW-WM: 10% read-only, 90% write-only. */
        BLINDW_WH("blindw-wh", "BlindW write-heavy: 10% read-only, 90% write-only txns of 8 ops, 10k keys, 24 sessions, unique values"),
        /** Vbox's BlindW-Pred: half the transactions read by range predicates, half write rows. */
        BLINDW_PRED("blindw-pred", "BlindW-Pred: 50% txns of 2 range predicate reads (about 10 of 10k rows each), 50% of 8 row writes, 24 sessions"),
        /** VeriStrong's YCSB-like generator: 15 operations, half reads, half the keys with duplicate values. */
        YCSB_DUP("ycsb-dup", "YCSB-like: 15 ops/txn, 50% reads, 5k keys, half of them written values 0..4, 20 sessions"),
        /** TPC-C's five transactions over warehouse, district, customer, stock and order rows. */
        TPCC("tpcc", "TPC-C-like: 2 warehouses x 10 districts, 45% new-order, 43% payment, 4% each order-status, delivery, stock-level"),
        /** Cobra's C-Twitter: tweets, timelines and follow lists. */
        TWITTER("twitter", "Twitter-like: 1000 users, 30% post, 20% (un)follow, 40% timeline, 10% own tweets, Zipfian users"),
        /** An application test's shape: a few hot rows rewritten by many threads with repeated values. */
        HOT_KEYS("hot-keys", "Hot keys: 1-6 ops/txn, 50% reads, 50 keys written values 0..3, 16 sessions");

        private final String cliName;
        private final String description;

        Kind(String cliName, String description) {
            this.cliName = cliName;
            this.description = description;
        }

        /** The name on the benchmark's command line, e.g. {@code blindw-rw}. */
        public String cliName() {
            return cliName;
        }

        /** What the workload does, in one line. */
        public String description() {
            return description;
        }

        /**
         * The workload named so (case-insensitive; {@code _} accepted for {@code -}).
         *
         * @throws IllegalArgumentException naming the workloads there are, if none is called so
         */
        public static Kind fromName(String name) {
            String normal = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
            for (Kind k : values()) {
                if (k.cliName.equals(normal)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown workload '" + name + "'; the workloads are "
                    + Arrays.stream(values()).map(Kind::cliName).collect(Collectors.joining(", ")));
        }

        @Override
        public String toString() {
            return cliName;
        }
    }

    /** A serial history of {@code transactions} transactions of workload {@code kind}, with {@link Timing#OVERLAPPING} times. */
    public static BenchHistory generate(Kind kind, int transactions, long seed) {
        return generate(kind, transactions, seed, InjectedAnomaly.NONE, Timing.OVERLAPPING);
    }

    /** {@link #generate(Kind, int, long, InjectedAnomaly, Timing)} with {@link Timing#OVERLAPPING} times. */
    public static BenchHistory generate(Kind kind, int transactions, long seed, InjectedAnomaly anomaly) {
        return generate(kind, transactions, seed, anomaly, Timing.OVERLAPPING);
    }

    /**
     * A history of {@code transactions} serial transactions of workload {@code kind}, plus the two
     * transactions of {@code anomaly} (none for {@link InjectedAnomaly#NONE}) at a point picked by
     * the seed, with times recorded as {@code timing} says. Without the anomaly's two transactions,
     * its operations and sessions are those {@link #generate(Kind, int, long)} gives for the same seed.
     *
     * @throws IllegalArgumentException if {@code transactions} is negative
     */
    public static BenchHistory generate(Kind kind, int transactions, long seed, InjectedAnomaly anomaly, Timing timing) {
        if (transactions < 0) {
            throw new IllegalArgumentException("a negative transaction count: " + transactions);
        }
        Objects.requireNonNull(anomaly, "anomaly is null");
        Objects.requireNonNull(timing, "timing is null");
        return generate(new Setup(transactions, seed, anomaly, timing, null), kind);
    }

    private static BenchHistory generate(Setup setup, Kind kind) {
        if (setup.transactions() < 0) {
            throw new IllegalArgumentException("a negative transaction count: " + setup.transactions());
        }
        return switch (kind) {
            case BLINDW_RH -> blindW(kind, 90, setup);
            case BLINDW_RW -> blindW(kind, 50, setup);
            case BLINDW_WH -> blindW(kind, 10, setup);
            case BLINDW_PRED -> blindWPred(setup);
            case YCSB_DUP -> ycsb(setup);
            case TPCC -> new Tpcc(setup).run();
            case TWITTER -> new Twitter(setup).run();
            case HOT_KEYS -> hotKeys(setup);
        };
    }

    /**
     * A run that continues another (the rounds benchmark's long history): the plain keys' values
     * it ended with, and a value above every unique value it wrote.
     */
    public record Continuation(Map<String, Integer> state, int firstValue) {
    }

    /**
     * As {@link #generate(Kind, int, long, InjectedAnomaly, Timing)}, starting where {@code from}
     * left the keys: its initial values are their values there.
     */
    public static BenchHistory generate(Kind kind, int transactions, long seed, InjectedAnomaly anomaly, Timing timing,
            Continuation from) {
        return generate(new Setup(transactions, seed, anomaly, timing, Objects.requireNonNull(from, "from is null")), kind);
    }

    /** What every generator is asked for. */
    private record Setup(int transactions, long seed, InjectedAnomaly anomaly, Timing timing, Continuation from) {
        SerialRun run(int sessions) {
            // Every key a generator touches is either declared or starts absent.
            SerialRun run = new SerialRun(seed, sessions, transactions, true, anomaly, timing);
            if (from != null) {
                run.continueFrom(from.state(), from.firstValue());
            }
            return run;
        }
    }

    private static String[] names(String prefix, int n) {
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = prefix + i;
        }
        return names;
    }

    private static BenchHistory blindW(Kind kind, int readOnlyPercent, Setup setup) {
        SerialRun run = setup.run(BLINDW_SESSIONS);
        String[] keys = names("k", BLINDW_KEYS);
        for (String key : keys) {
            run.initial(key, 0);
        }
        int[] picked = new int[BLINDW_OPS];
        while (!run.done()) {
            SerialRun.Tx tx = run.begin();
            boolean readOnly = run.random.nextInt(100) < readOnlyPercent;
            // Cobra's clients touch a key at most once per transaction.
            distinct(run.random, BLINDW_KEYS, picked);
            for (int k : picked) {
                if (readOnly) {
                    tx.read(keys[k]);
                } else {
                    tx.write(keys[k], run.unique());
                }
            }
        }
        return run.finish(kind, setup.seed(), true);
    }

    /**
     * Vbox's BlindW-Pred over a table {@code r} of {@value #BLINDW_KEYS} rows {@code {k, v1, v2}}:
     * half the transactions make {@value #PRED_READS} predicate reads {@code v1 BETWEEN a AND b} or
     * {@code v2 ...} over a range of {@value #PRED_WIDTH} of the {@value #PRED_DOMAIN} values (about
     * ten rows each), the other half overwrite {@value #BLINDW_OPS} distinct rows with fresh random
     * {@code v1, v2}. Every row starts present; values repeat only by chance.
     */
    private static BenchHistory blindWPred(Setup setup) {
        SerialRun run = setup.run(BLINDW_SESSIONS);
        String[] keys = names(PRED_TABLE + "/", BLINDW_KEYS);
        long[] v1 = new long[BLINDW_KEYS];
        long[] v2 = new long[BLINDW_KEYS];
        for (int k = 0; k < BLINDW_KEYS; k++) {
            v1[k] = run.random.nextLong(PRED_DOMAIN);
            v2[k] = run.random.nextLong(PRED_DOMAIN);
            run.initialRow(keys[k], predRow(k, v1[k], v2[k]));
        }
        int[] picked = new int[BLINDW_OPS];
        while (!run.done()) {
            SerialRun.Tx tx = run.begin();
            if (run.random.nextBoolean()) {
                for (int i = 0; i < PRED_READS; i++) {
                    boolean first = run.random.nextBoolean();
                    long[] column = first ? v1 : v2;
                    long low = run.random.nextLong(PRED_DOMAIN - PRED_WIDTH + 1);
                    long high = low + PRED_WIDTH - 1;
                    Map<String, Object> returned = new LinkedHashMap<>();
                    for (int k = 0; k < BLINDW_KEYS; k++) {
                        if (column[k] >= low && column[k] <= high) {
                            returned.put(keys[k], predRow(k, v1[k], v2[k]));
                        }
                    }
                    tx.predicate(PRED_TABLE, (first ? "v1" : "v2") + " BETWEEN " + low + " AND " + high, returned);
                }
            } else {
                distinct(run.random, BLINDW_KEYS, picked);
                for (int k : picked) {
                    v1[k] = run.random.nextLong(PRED_DOMAIN);
                    v2[k] = run.random.nextLong(PRED_DOMAIN);
                    tx.writeRow(keys[k], predRow(k, v1[k], v2[k]));
                }
            }
        }
        return run.finish(Kind.BLINDW_PRED, setup.seed(), false);
    }

    private static Map<String, Object> predRow(int k, long v1, long v2) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("k", k);
        row.put("v1", v1);
        row.put("v2", v2);
        return row;
    }

    /** Fills {@code into} with distinct ints from {@code [0, bound)}. */
    private static void distinct(SplittableRandom random, int bound, int[] into) {
        for (int i = 0; i < into.length; i++) {
            int candidate;
            boolean repeated;
            do {
                candidate = random.nextInt(bound);
                repeated = false;
                for (int j = 0; j < i; j++) {
                    repeated |= into[j] == candidate;
                }
            } while (repeated);
            into[i] = candidate;
        }
    }

    private static BenchHistory ycsb(Setup setup) {
        SerialRun run = setup.run(YCSB_SESSIONS);
        String[] keys = names("k", YCSB_KEYS);
        for (String key : keys) {
            run.initial(key, 0);
        }
        while (!run.done()) {
            SerialRun.Tx tx = run.begin();
            // Keys drawn independently: a transaction may re-read its own write or write a key twice, so internal reads occur.
            for (int op = 0; op < YCSB_OPS; op++) {
                int k = run.random.nextInt(YCSB_KEYS);
                if (run.random.nextBoolean()) {
                    tx.read(keys[k]);
                } else {
                    tx.write(keys[k], k < YCSB_DUPLICATE_KEYS ? run.random.nextInt(YCSB_DUPLICATE_DOMAIN) : run.unique());
                }
            }
        }
        return run.finish(Kind.YCSB_DUP, setup.seed(), false);
    }

    /**
     * Hot keys: what an application test does to a few rows from many threads. Every value comes
     * from a domain of four, so a read's value was written by many transactions, the hardest shape
     * for a black-box checker and the common one for a recorder.
     */
    private static BenchHistory hotKeys(Setup setup) {
        SerialRun run = setup.run(HOT_SESSIONS);
        String[] keys = names("h", HOT_KEYS);
        for (String key : keys) {
            run.initial(key, 0);
        }
        while (!run.done()) {
            SerialRun.Tx tx = run.begin();
            int ops = 1 + run.random.nextInt(HOT_OPS);
            for (int op = 0; op < ops; op++) {
                String key = keys[run.random.nextInt(HOT_KEYS)];
                if (run.random.nextBoolean()) {
                    tx.read(key);
                } else {
                    tx.write(key, run.random.nextInt(HOT_DOMAIN));
                }
            }
        }
        return run.finish(Kind.HOT_KEYS, setup.seed(), false);
    }

    /**
     * TPC-C's transactions as key-value operations on its rows ({@code w1}, {@code d1.3},
     * {@code c1.3.42}, {@code s1.77}, {@code o1.3.5}, {@code no1.3.5}, {@code ol1.3.5.2},
     * {@code h17}), with Cobra's mix. Every write writes a unique value, as Cobra's clients tag
     * writes; the rows' real contents would not change which transaction reads from which.
     */
    private static final class Tpcc {

        /** One order as the generator remembers it, to read it back later. */
        private record Order(int oid, String customer, int[] items, int[] supplyWarehouses) {
        }

        private final SerialRun run;
        private final long seed;
        private final String[] warehouses = new String[TPCC_WAREHOUSES + 1];
        private final String[][] districts = new String[TPCC_WAREHOUSES + 1][TPCC_DISTRICTS + 1];
        private final String[][][] customers = new String[TPCC_WAREHOUSES + 1][TPCC_DISTRICTS + 1][TPCC_CUSTOMERS + 1];
        private final String[][] stock = new String[TPCC_WAREHOUSES + 1][TPCC_ITEMS + 1];
        private final int[][] nextOrder = new int[TPCC_WAREHOUSES + 1][TPCC_DISTRICTS + 1];
        private final List<List<List<Order>>> orders = new ArrayList<>();
        private final List<List<ArrayDeque<Order>>> undelivered = new ArrayList<>();
        private final Map<String, Order> lastOrderOf = new HashMap<>();
        private int historyRows;

        Tpcc(Setup setup) {
            this.seed = setup.seed();
            // Orders, order lines, new-order and history rows start absent: TPC-C's initial orders are left out.
            run = setup.run(APP_SESSIONS);
            for (int w = 0; w <= TPCC_WAREHOUSES; w++) {
                orders.add(new ArrayList<>());
                undelivered.add(new ArrayList<>());
                for (int d = 0; d <= TPCC_DISTRICTS; d++) {
                    orders.get(w).add(new ArrayList<>());
                    undelivered.get(w).add(new ArrayDeque<>());
                }
            }
            for (int w = 1; w <= TPCC_WAREHOUSES; w++) {
                warehouses[w] = "w" + w;
                run.initial(warehouses[w], 0);
                for (int d = 1; d <= TPCC_DISTRICTS; d++) {
                    districts[w][d] = "d" + w + "." + d;
                    run.initial(districts[w][d], 0);
                    nextOrder[w][d] = 1;
                    for (int c = 1; c <= TPCC_CUSTOMERS; c++) {
                        customers[w][d][c] = "c" + w + "." + d + "." + c;
                        run.initial(customers[w][d][c], 0);
                    }
                }
                for (int i = 1; i <= TPCC_ITEMS; i++) {
                    stock[w][i] = "s" + w + "." + i;
                    run.initial(stock[w][i], 0);
                }
            }
        }

        BenchHistory run() {
            while (!run.done()) {
                SerialRun.Tx tx = run.begin();
                int w = 1 + run.random.nextInt(TPCC_WAREHOUSES);
                int d = 1 + run.random.nextInt(TPCC_DISTRICTS);
                int mix = run.random.nextInt(100);
                if (mix < 45) {
                    newOrder(tx, w, d);
                } else if (mix < 88) {
                    payment(tx, w, d);
                } else if (mix < 92) {
                    orderStatus(tx, w, d);
                } else if (mix < 96) {
                    delivery(tx, w);
                } else {
                    stockLevel(tx, w, d);
                }
            }
            return run.finish(Kind.TPCC, seed, true);
        }

        /** TPC-C's NURand(A, 1, n), with a fixed C: some customers and items are much hotter. */
        private int nurand(int a, int n) {
            return ((run.random.nextInt(a + 1) | (1 + run.random.nextInt(n))) + 42) % n + 1;
        }

        private int customer() {
            return nurand(127, TPCC_CUSTOMERS);
        }

        private int otherWarehouse(int w) {
            return 1 + (w - 1 + 1 + run.random.nextInt(TPCC_WAREHOUSES - 1)) % TPCC_WAREHOUSES;
        }

        private void newOrder(SerialRun.Tx tx, int w, int d) {
            int c = customer();
            tx.read(warehouses[w]);
            // The district row holds the next order id: every new-order of a district is a read-modify-write of it.
            tx.readModifyWrite(districts[w][d]);
            tx.read(customers[w][d][c]);
            int oid = nextOrder[w][d]++;
            int lines = 5 + run.random.nextInt(11);
            int[] items = new int[lines];
            int[] supply = new int[lines];
            for (int l = 0; l < lines; l++) {
                int item;
                boolean repeated;
                do {
                    item = nurand(255, TPCC_ITEMS);
                    repeated = false;
                    for (int j = 0; j < l; j++) {
                        repeated |= items[j] == item;
                    }
                } while (repeated);
                items[l] = item;
                supply[l] = TPCC_WAREHOUSES > 1 && run.random.nextInt(100) == 0 ? otherWarehouse(w) : w;
                tx.readModifyWrite(stock[supply[l]][item]);
            }
            String order = w + "." + d + "." + oid;
            tx.write("o" + order, run.unique());
            tx.write("no" + order, run.unique());
            for (int l = 0; l < lines; l++) {
                tx.write("ol" + order + "." + (l + 1), run.unique());
            }
            Order placed = new Order(oid, customers[w][d][c], items, supply);
            orders.get(w).get(d).add(placed);
            undelivered.get(w).get(d).add(placed);
            lastOrderOf.put(customers[w][d][c], placed);
        }

        private void payment(SerialRun.Tx tx, int w, int d) {
            tx.readModifyWrite(warehouses[w]);
            tx.readModifyWrite(districts[w][d]);
            // 15% of payments are for a customer of another warehouse, as in TPC-C.
            int cw = TPCC_WAREHOUSES > 1 && run.random.nextInt(100) < 15 ? otherWarehouse(w) : w;
            int cd = cw == w ? d : 1 + run.random.nextInt(TPCC_DISTRICTS);
            tx.readModifyWrite(customers[cw][cd][customer()]);
            tx.write("h" + (++historyRows), run.unique());
        }

        private void orderStatus(SerialRun.Tx tx, int w, int d) {
            String c = customers[w][d][customer()];
            tx.read(c);
            Order last = lastOrderOf.get(c);
            if (last != null) {
                String order = w + "." + d + "." + last.oid();
                tx.read("o" + order);
                for (int l = 1; l <= last.items().length; l++) {
                    tx.read("ol" + order + "." + l);
                }
            }
        }

        private void delivery(SerialRun.Tx tx, int w) {
            for (int d = 1; d <= TPCC_DISTRICTS; d++) {
                Order oldest = undelivered.get(w).get(d).poll();
                if (oldest == null) {
                    // TPC-C's select of the oldest new-order row finds none: a read of the row the next new-order inserts.
                    tx.read("no" + w + "." + d + "." + nextOrder[w][d]);
                    continue;
                }
                String order = w + "." + d + "." + oldest.oid();
                tx.read("no" + order);
                tx.write("no" + order, null);
                // The carrier id is written into the order row; the customer's balance grows by the order's amount.
                tx.readModifyWrite("o" + order);
                tx.readModifyWrite(oldest.customer());
            }
        }

        private void stockLevel(SerialRun.Tx tx, int w, int d) {
            tx.read(districts[w][d]);
            List<Order> placed = orders.get(w).get(d);
            // TPC-C looks at the last 20 orders; 3 keep the transaction at a few dozen reads.
            boolean[] seen = new boolean[TPCC_ITEMS + 1];
            for (int o = Math.max(0, placed.size() - 3); o < placed.size(); o++) {
                Order order = placed.get(o);
                String name = w + "." + d + "." + order.oid();
                for (int l = 0; l < order.items().length; l++) {
                    tx.read("ol" + name + "." + (l + 1));
                    if (order.supplyWarehouses()[l] == w && !seen[order.items()[l]]) {
                        seen[order.items()[l]] = true;
                        tx.read(stock[w][order.items()[l]]);
                    }
                }
            }
        }
    }

    /**
     * Cobra's C-Twitter as key-value operations: a follow list per user ({@code f12}), the id of
     * the user's latest tweet ({@code h12}) and the tweets ({@code tw345}, inserted once). Who
     * posts and who is followed are Zipfian, so a few users' heads and follow lists are hot.
     */
    private static final class Twitter {

        private final SerialRun run;
        private final long seed;
        private final String[] follows = names("f", TWITTER_USERS);
        private final String[] heads = names("h", TWITTER_USERS);
        private final List<List<Integer>> followees = new ArrayList<>();
        private final List<List<Integer>> tweets = new ArrayList<>();
        private final double[] zipf = new double[TWITTER_USERS];
        private int tweetCount;

        Twitter(Setup setup) {
            this.seed = setup.seed();
            run = setup.run(APP_SESSIONS);
            double sum = 0;
            for (int u = 0; u < TWITTER_USERS; u++) {
                sum += 1 / Math.pow(u + 1, TWITTER_ZIPF);
                zipf[u] = sum;
            }
            for (int u = 0; u < TWITTER_USERS; u++) {
                zipf[u] /= sum;
            }
            for (int u = 0; u < TWITTER_USERS; u++) {
                // The initial follow lists are part of the initial state, whose value 0 stands for them.
                run.initial(follows[u], 0);
                run.initial(heads[u], 0);
                tweets.add(new ArrayList<>());
                List<Integer> mine = new ArrayList<>();
                while (mine.size() < TWITTER_INITIAL_FOLLOWS) {
                    int other = popular();
                    if (other != u && !mine.contains(other)) {
                        mine.add(other);
                    }
                }
                followees.add(mine);
            }
        }

        /** A user drawn from the Zipf distribution: user 0 is the most popular. */
        private int popular() {
            int at = Arrays.binarySearch(zipf, run.random.nextDouble());
            return Math.min(TWITTER_USERS - 1, at >= 0 ? at : -at - 1);
        }

        BenchHistory run() {
            while (!run.done()) {
                SerialRun.Tx tx = run.begin();
                int mix = run.random.nextInt(100);
                if (mix < 30) {
                    post(tx, popular());
                } else if (mix < 50) {
                    follow(tx, run.random.nextInt(TWITTER_USERS));
                } else if (mix < 90) {
                    timeline(tx, run.random.nextInt(TWITTER_USERS));
                } else {
                    ownTweets(tx, popular());
                }
            }
            return run.finish(Kind.TWITTER, seed, true);
        }

        private void post(SerialRun.Tx tx, int user) {
            tx.write("tw" + (++tweetCount), run.unique());
            tx.readModifyWrite(heads[user]);
            tweets.get(user).add(tweetCount);
        }

        private void follow(SerialRun.Tx tx, int user) {
            tx.read(follows[user]);
            int other = popular();
            List<Integer> mine = followees.get(user);
            if (mine.contains(other)) {
                mine.remove(Integer.valueOf(other));
            } else if (other != user) {
                mine.add(other);
            }
            tx.write(follows[user], run.unique());
        }

        private void timeline(SerialRun.Tx tx, int user) {
            tx.read(follows[user]);
            List<Integer> mine = followees.get(user);
            // Up to 5 followees, each with their latest 2 tweets: the head says which tweet is latest.
            int shown = Math.min(5, mine.size());
            int from = mine.size() == shown ? 0 : run.random.nextInt(mine.size() - shown + 1);
            for (int i = from; i < from + shown; i++) {
                int other = mine.get(i);
                tx.read(heads[other]);
                List<Integer> theirs = tweets.get(other);
                for (int t = theirs.size() - 1; t >= Math.max(0, theirs.size() - 2); t--) {
                    tx.read("tw" + theirs.get(t));
                }
            }
        }

        private void ownTweets(SerialRun.Tx tx, int user) {
            tx.read(heads[user]);
            List<Integer> mine = tweets.get(user);
            for (int t = mine.size() - 1; t >= Math.max(0, mine.size() - 5); t--) {
                tx.read("tw" + mine.get(t));
            }
        }
    }
}
