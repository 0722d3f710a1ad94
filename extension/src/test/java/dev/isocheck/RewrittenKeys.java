package dev.isocheck;

import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Issue 14's hard case: a correct serial run over few keys, each rewritten hundreds of times with
 * values from a tiny domain, so that values repeat (duplicate values) and every read has many
 * candidate writers. Transactions run one at a time with start and end times, in sessions taken at
 * random; each reads 1 to 3 keys (the values the serial run holds) and writes 1 to 3 keys with
 * values drawn from {@code 0..values-1}; every key starts at 0 (a complete initial state).
 *
 * <p>{@link Layout#SESSION_BY_SESSION} writes the same run without times and session by session
 * (each session's transactions in their order, the sessions one after another): the serial order
 * is still a valid one, but neither the file nor any recorded time gives it away.
 *
 * <p>{@code main} writes one as JSON Lines:
 * {@code RewrittenKeys FILE [TRANSACTIONS [SEED [serial|session-by-session]]]}.
 */
public final class RewrittenKeys {

    /** The case of the issue: 5,000 transactions, 16 sessions, 50 keys, values 0..3. */
    public static final int TRANSACTIONS = 5_000;
    public static final int SESSIONS = 16;
    public static final int KEYS = 50;
    public static final int VALUES = 4;

    private RewrittenKeys() {
    }

    /** How the run is written down. */
    public enum Layout {
        /** In the order of the run, with start and end times. */
        SERIAL,
        /** Without times, session after session. */
        SESSION_BY_SESSION
    }

    /** The case with {@code seed}. */
    public static History history(long seed) {
        return history(TRANSACTIONS, SESSIONS, KEYS, VALUES, seed, Layout.SERIAL);
    }

    /** A serial run as the class comment says, with these sizes. */
    public static History history(int transactions, int sessions, int keys, int values, long seed, Layout layout) {
        Random random = new Random(seed);
        int[] state = new int[keys];
        // Each transaction as its session, then (key, value) reads and writes: -1 separates them.
        int[] session = new int[transactions];
        List<List<int[]>> ops = new ArrayList<>(transactions);
        for (int t = 0; t < transactions; t++) {
            session[t] = random.nextInt(sessions);
            List<int[]> these = new ArrayList<>();
            int reads = 1 + random.nextInt(3);
            for (int r = 0; r < reads; r++) {
                int k = random.nextInt(keys);
                these.add(new int[] {0, k, state[k]});
            }
            int writes = 1 + random.nextInt(3);
            for (int w = 0; w < writes; w++) {
                int k = random.nextInt(keys);
                state[k] = random.nextInt(values);
                these.add(new int[] {1, k, state[k]});
            }
            ops.add(these);
        }
        List<Integer> order = new ArrayList<>(transactions);
        for (int t = 0; t < transactions; t++) {
            order.add(t);
        }
        if (layout == Layout.SESSION_BY_SESSION) {
            order.sort(Comparator.comparingInt((Integer t) -> session[t]).thenComparingInt(t -> t));
        }
        HistoryBuilder builder = History.builder().initialStateComplete(true);
        for (int k = 0; k < keys; k++) {
            builder.initialValue(key(k), 0);
        }
        for (int t : order) {
            HistoryBuilder.TransactionBuilder txn = builder.transaction("T" + t).session("s" + session[t]);
            for (int[] op : ops.get(t)) {
                if (op[0] == 0) {
                    txn.read(key(op[1]), op[2]);
                } else {
                    txn.write(key(op[1]), op[2]);
                }
            }
            if (layout == Layout.SERIAL) {
                txn.times(2L * t + 1, 2L * t + 2);
            }
        }
        return builder.build();
    }

    private static String key(int k) {
        return "k" + k;
    }

    /** Writes the case (or one of the given size) to a file. */
    public static void main(String[] args) throws IOException {
        int transactions = args.length > 1 ? Integer.parseInt(args[1]) : TRANSACTIONS;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 14;
        Layout layout = args.length > 3 ? Layout.valueOf(args[3].toUpperCase(java.util.Locale.ROOT).replace('-', '_'))
                : Layout.SERIAL;
        new JsonlHistoryWriter().write(history(transactions, SESSIONS, KEYS, VALUES, seed, layout), Path.of(args[0]));
    }
}
