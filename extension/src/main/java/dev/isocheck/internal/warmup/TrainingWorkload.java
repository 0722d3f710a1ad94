package dev.isocheck.internal.warmup;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A small key-value workload whose verdict is known by construction: transactions of a few
 * sessions run one at a time against a map in a seeded random interleaving (transfers that read
 * two keys and write both, read-only transactions and blind writes), so that the history is
 * serializable; with {@code lostUpdate}, two more transactions at the end both read one key's
 * latest value and write it, which no serial order explains. Every write's value is new (a
 * global counter from 1), every key starts at 0, and start and end times overlap as closed-loop
 * clients' do, consistent with the serial order.
 *
 * <p>Rendered as the recorder records rows ({@link #asRows()}) for the JUnit warm-up, and as plain
 * keys and numbers ({@link #asKeys()}) or the operations themselves ({@link #sessions()}) for the
 * files the {@code check} command's training reads.
 */
public final class TrainingWorkload {

    /** The table the rows are said to be in, as the recorder names keys ({@code table/id}). */
    private static final String TABLE = "accounts";

    /**
     * One operation: a write of {@code value} to {@code key}, or a read of {@code key} that saw
     * {@code value}, written by the transaction with id {@code writer} ({@code 0}: the initial value).
     */
    public record Op(boolean write, int key, long value, int writer) {
    }

    /**
     * One committed transaction.
     *
     * @param id      1, 2, … in the order the transactions ran (the serial order)
     * @param session the session's index, from 0
     * @param ops     the operations in order
     * @param start   when it started; {@code end} when its end was acknowledged
     */
    public record Transaction(int id, int session, List<Op> ops, long start, long end) {
    }

    private final List<List<Transaction>> sessions;
    private final int keys;

    private TrainingWorkload(List<List<Transaction>> sessions, int keys) {
        this.sessions = sessions;
        this.keys = keys;
    }

    /**
     * Generates {@code perSession} transactions in each of {@code sessions} sessions over
     * {@code keys} keys, from {@code seed}; with {@code lostUpdate}, a lost update after them.
     */
    public static TrainingWorkload generate(long seed, int sessions, int perSession, int keys, boolean lostUpdate) {
        return new Generator(seed, sessions, keys).run(perSession, lostUpdate);
    }

    /** The transactions of each session, in session order. */
    public List<List<Transaction>> sessions() {
        return sessions;
    }

    /** How many keys the transactions use: {@code 0 .. keys - 1}. */
    public int keys() {
        return keys;
    }

    /**
     * As the recorder would record it: keys {@code accounts/K}, values rows
     * {@code {"id": K, "balance": V}}, initial values unknown ({@code "any"}), times.
     */
    public History asRows() {
        HistoryBuilder builder = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        add(builder, true);
        return builder.build();
    }

    /** Keys {@code xK} and numbers, every key starting at 0 (a complete initial state), times. */
    public History asKeys() {
        HistoryBuilder builder = History.builder().initialStateComplete(true);
        for (int key = 0; key < keys; key++) {
            builder.initialValue("x" + key, 0L);
        }
        add(builder, false);
        return builder.build();
    }

    private void add(HistoryBuilder builder, boolean rows) {
        for (List<Transaction> session : sessions) {
            for (Transaction t : session) {
                HistoryBuilder.TransactionBuilder added = builder.transaction("T" + t.id())
                        .session("s" + t.session()).times(t.start(), t.end());
                for (Op op : t.ops()) {
                    String key = rows ? TABLE + "/" + op.key() : "x" + op.key();
                    Object value = rows ? Map.of("id", (long) op.key(), "balance", op.value()) : op.value();
                    if (op.write()) {
                        added.write(key, value);
                    } else {
                        added.read(key, value);
                    }
                }
            }
        }
    }

    /** Runs the transactions one at a time against the keys' latest values. */
    private static final class Generator {

        private final SplittableRandom random;
        private final int sessionCount;
        private final int keys;
        private final long[] latest;
        private final int[] writerOf;
        private final List<List<Transaction>> sessions = new ArrayList<>();
        private long nextValue = 1;
        private int nextId = 1;
        private long clock;

        Generator(long seed, int sessionCount, int keys) {
            this.random = new SplittableRandom(seed);
            this.sessionCount = sessionCount;
            this.keys = keys;
            this.latest = new long[keys];
            this.writerOf = new int[keys];
            for (int s = 0; s < sessionCount; s++) {
                sessions.add(new ArrayList<>());
            }
        }

        TrainingWorkload run(int perSession, boolean lostUpdate) {
            int[] left = new int[sessionCount];
            java.util.Arrays.fill(left, perSession);
            for (int remaining = sessionCount * perSession; remaining > 0; remaining--) {
                int session = random.nextInt(sessionCount);
                while (left[session] == 0) {
                    session = (session + 1) % sessionCount;
                }
                left[session]--;
                add(session, transaction());
            }
            if (lostUpdate && sessionCount > 1) {
                addLostUpdate();
            }
            return new TrainingWorkload(endsBeforeTheSessionsNext(), keys);
        }

        /** The operations of the next transaction in the serial order, applied to the map. */
        private List<Op> transaction() {
            int id = nextId;
            int kind = random.nextInt(10);
            int a = random.nextInt(keys);
            int b = (a + 1 + random.nextInt(keys - 1)) % keys;
            List<Op> ops = new ArrayList<>();
            if (kind < 6) {
                ops.add(read(a));
                ops.add(read(b));
                ops.add(write(a, id));
                ops.add(write(b, id));
            } else if (kind < 9) {
                ops.add(read(a));
                ops.add(read(b));
                ops.add(read(random.nextInt(keys)));
            } else {
                ops.add(write(a, id));
            }
            return ops;
        }

        private Op read(int key) {
            return new Op(false, key, latest[key], writerOf[key]);
        }

        private Op write(int key, int id) {
            long value = nextValue++;
            latest[key] = value;
            writerOf[key] = id;
            return new Op(true, key, value, id);
        }

        private void add(int session, List<Op> ops) {
            long start = clock;
            clock += 100;
            sessions.get(session).add(new Transaction(nextId++, session, ops, start, start + 50 + random.nextInt(250)));
        }

        /** Two sessions read one key's latest value and both write it: the first write is lost. */
        private void addLostUpdate() {
            int key = random.nextInt(keys);
            Op seen = read(key);
            int first = nextId;
            add(0, List.of(seen, write(key, first)));
            add(1, List.of(seen, write(key, first + 1)));
        }

        /**
         * The transactions with each one's end moved before its session's next start where the
         * random end fell after it: a session's transactions do not overlap. Ends stay after starts,
         * and a transaction that ended before another started still precedes it in the serial order.
         */
        private List<List<Transaction>> endsBeforeTheSessionsNext() {
            List<List<Transaction>> fixed = new ArrayList<>();
            for (List<Transaction> session : sessions) {
                List<Transaction> out = new ArrayList<>();
                for (int i = 0; i < session.size(); i++) {
                    Transaction t = session.get(i);
                    long end = i + 1 < session.size() ? Math.min(t.end(), session.get(i + 1).start() - 1) : t.end();
                    out.add(new Transaction(t.id(), t.session(), List.copyOf(t.ops()), t.start(), end));
                }
                fixed.add(List.copyOf(out));
            }
            return List.copyOf(fixed);
        }
    }
}
