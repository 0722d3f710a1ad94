package dev.isocheck.internal.simulate;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.internal.simulate.InjectedBug.Kind;
import dev.isocheck.internal.simulate.SimulatedDatabase.Isolation;
import dev.isocheck.internal.simulate.Workload.InitialKnowledge;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Generates histories by running a {@link Workload} against a {@link SimulatedDatabase}.
 *
 * <p>Reproducible: the same workload, database and seed give the same history (one
 * {@link SplittableRandom}, and no iteration over hash-ordered collections). Transactions appear
 * in the history in the order they ended; ids are {@code T1, T2, …} in the order they began;
 * sessions are named {@code s0, s1, …}. Times, when recorded, come from one logical clock that
 * ticks at every begin, operation and end, so a serial database's histories respect real time.
 */
public final class HistoryGenerator {

    private final Workload workload;
    private final SimulatedDatabase database;
    private final boolean presentReads;

    /** A generator of histories of {@code workload} run against {@code database}. */
    public HistoryGenerator(Workload workload, SimulatedDatabase database) {
        this(workload, database, false);
    }

    private HistoryGenerator(Workload workload, SimulatedDatabase database, boolean presentReads) {
        this.workload = Objects.requireNonNull(workload, "workload is null");
        this.database = Objects.requireNonNull(database, "database is null");
        this.presentReads = presentReads;
    }

    /**
     * This generator, recording in committed transactions, before each write of a row key that
     * replaces a present row (an update, or a delete that removes a row), a read of the row's key
     * column alone, {@code {"id": i}}: what a recorder knows of an UPDATE or DELETE whose old row
     * the database does not give, that the row was there. The row replaced is the transaction's
     * own earlier write of the key, else the committed version it would read there: a database
     * that locks the rows it writes, as PostgreSQL, H2 and HSQLDB do, changes the version an item
     * read at that moment returns (under snapshot isolation the snapshot's, which first committer
     * wins keeps the latest). Before a write of a row over an absent one that an INSERT would make
     * at once on a database with a primary key (the transaction deleted the row itself, or no
     * committed row has the key and no other open transaction has written it), a read of its
     * absence: what a recorder knows of an INSERT that succeeded. The random choices are the same:
     * with the same seed, the history is the one without these reads, those reads added.
     */
    public HistoryGenerator withPresentReads() {
        return new HistoryGenerator(workload, database, true);
    }

    /** The workload the clients run. */
    public Workload workload() {
        return workload;
    }

    /** The database simulated. */
    public SimulatedDatabase database() {
        return database;
    }

    /**
     * Runs the workload once.
     *
     * @param seed picks every random choice
     * @return the history and the bugs injected into it; never {@code null}
     */
    public GeneratedHistory generate(long seed) {
        return new Simulation(workload, database, seed, presentReads).run();
    }

    /** A committed version of a key. */
    private record Version(long sequence, Object value, String writer) {
    }

    /** One operation as recorded, kept until the transaction ends. */
    private record Op(char kind, String key, Object value, String where, Map<String, Object> rows) {
    }

    /** A transaction while it runs. */
    private static final class Run {
        final String id;
        final int session;
        final long start;
        final long snapshot;
        int opsLeft;
        final List<Op> ops = new ArrayList<>();
        /** Own writes in the order first made; the last value per key. */
        final Map<Integer, Object> writes = new LinkedHashMap<>();
        /** Keys read or written by item operations: a later read of them is internal. */
        final Set<Integer> accessed = new HashSet<>();
        /** Full values this transaction's item reads returned, per key, before it wrote the key. */
        final Map<Integer, List<Object>> itemReads = new LinkedHashMap<>();
        final List<InjectedBug> pending = new ArrayList<>();
        final List<Integer> mustOverwrite = new ArrayList<>();
        boolean doomed;
        boolean mustCommit;

        Run(String id, int session, long start, long snapshot, int ops) {
            this.id = id;
            this.session = session;
            this.start = start;
            this.snapshot = snapshot;
            this.opsLeft = ops;
        }
    }

    /** One generation: all mutable state of the simulated database and clients. */
    private static final class Simulation {

        private final Workload w;
        private final SimulatedDatabase db;
        private final long seed;
        private final boolean presentReads;
        private final SplittableRandom random;
        private final HistoryBuilder builder = History.builder();
        private final String[] keyNames;
        private final List<List<Version>> versions = new ArrayList<>();
        private final List<Run> open = new ArrayList<>();
        private final List<InjectedBug> bugs = new ArrayList<>();
        private long clock;
        private long sequence;
        private long nextUnique = 1;
        private int begun;

        Simulation(Workload workload, SimulatedDatabase database, long seed, boolean presentReads) {
            this.w = workload;
            this.db = database;
            this.seed = seed;
            this.presentReads = presentReads;
            this.random = new SplittableRandom(seed);
            int keys = w.plainKeys() + w.rowKeys();
            keyNames = new String[keys];
            for (int k = 0; k < keys; k++) {
                keyNames[k] = isRow(k) ? w.table() + "/" + (k - w.plainKeys()) : "k" + k;
            }
        }

        GeneratedHistory run() {
            initialState();
            int[] remaining = new int[w.sessions()];
            java.util.Arrays.fill(remaining, w.transactionsPerSession());
            Run[] current = new Run[w.sessions()];
            List<Integer> active = new ArrayList<>();
            for (int s = 0; s < w.sessions(); s++) {
                if (remaining[s] > 0) {
                    active.add(s);
                }
            }
            while (!active.isEmpty()) {
                int pick = random.nextInt(active.size());
                int s = active.get(pick);
                if (db.isolation() == Isolation.SERIAL) {
                    Run run = begin(s);
                    while (run.opsLeft > 0) {
                        operation(run);
                    }
                    end(run);
                    remaining[s]--;
                } else if (current[s] == null) {
                    current[s] = begin(s);
                } else if (current[s].opsLeft > 0) {
                    operation(current[s]);
                } else {
                    end(current[s]);
                    current[s] = null;
                    remaining[s]--;
                }
                if (remaining[s] == 0 && current[s] == null) {
                    active.remove(pick);
                }
            }
            return new GeneratedHistory(seed, builder.build(), bugs);
        }

        private boolean isRow(int key) {
            return key >= w.plainKeys();
        }

        private int rowId(int key) {
            return key - w.plainKeys();
        }

        private Object valueFor(int key, long v) {
            if (!isRow(key)) {
                return v;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", (long) rowId(key));
            row.put("v", v);
            return row;
        }

        private void initialState() {
            builder.initialStateComplete(w.initialState() != InitialKnowledge.UNKNOWN);
            for (int k = 0; k < keyNames.length; k++) {
                Object initial;
                switch (w.initialState()) {
                    case KNOWN -> {
                        // Some rows start absent, so that writes of them are inserts.
                        initial = isRow(k) && random.nextInt(4) == 0 ? null : valueFor(k, 0);
                        builder.initialValue(keyNames[k], initial);
                    }
                    case COMPLETE -> initial = null;
                    default -> initial = random.nextBoolean() ? null : valueFor(k, -1 - k);
                }
                List<Version> history = new ArrayList<>();
                history.add(new Version(0, initial, "the initial state"));
                versions.add(history);
            }
        }

        private Run begin(int session) {
            begun++;
            Run run = new Run("T" + begun, session, ++clock, sequence, 1 + random.nextInt(w.maxOpsPerTransaction()));
            open.add(run);
            return run;
        }

        private void operation(Run run) {
            run.opsLeft--;
            clock++;
            int total = w.readWeight() + w.writeWeight() + w.deleteWeight() + (w.rowKeys() > 0 ? w.predicateWeight() : 0);
            int choice = random.nextInt(total);
            int key = random.nextInt(keyNames.length);
            if (choice < w.readWeight()) {
                read(run, key);
            } else if (choice < w.readWeight() + w.writeWeight()) {
                write(run, key, valueFor(key, nextValue()));
            } else if (choice < w.readWeight() + w.writeWeight() + w.deleteWeight()) {
                write(run, key, null);
            } else {
                predicate(run);
            }
        }

        private long nextValue() {
            return w.valueDomain() == 0 ? nextUnique++ : random.nextInt(w.valueDomain());
        }

        private void write(Run run, int key, Object value) {
            Object replaced = run.writes.containsKey(key) ? run.writes.get(key) : visible(run, key).value();
            if (presentReads && replaced instanceof Map<?, ?> row) {
                run.ops.add(new Op('e', keyNames[key], Map.of("id", row.get("id")), null, null));
            } else if (presentReads && replaced == null && value != null && (run.writes.containsKey(key) || insertable(run, key))) {
                // An INSERT: the recorder reads the key absent before it (the transaction's own
                // delete, or no row committed and none being written).
                run.ops.add(new Op('e', keyNames[key], null, null, null));
            }
            run.writes.put(key, value);
            run.accessed.add(key);
            run.ops.add(new Op('w', keyNames[key], value, null, null));
        }

        private void read(Run run, int key) {
            Object value;
            if (run.writes.containsKey(key)) {
                value = run.writes.get(key);
            } else if (run.accessed.contains(key) && db.isolation() != Isolation.READ_COMMITTED) {
                // Repeatable reads: a re-read returns what the first read returned, bug or not.
                value = run.itemReads.get(key).get(0);
            } else {
                value = run.accessed.contains(key) ? NOT_INJECTED : injectedRead(run, key);
                if (value == NOT_INJECTED) {
                    value = visible(run, key).value();
                }
                nonRepeatable(run, key, value);
            }
            run.accessed.add(key);
            run.ops.add(new Op('r', keyNames[key], project(value), null, null));
        }

        /** Marker: no bug changed this read. */
        private static final Object NOT_INJECTED = new Object();

        private Object injectedRead(Run run, int key) {
            if (db.bugProbability() == 0 || random.nextDouble() >= db.bugProbability()) {
                return NOT_INJECTED;
            }
            if (db.injects(Kind.STALE_READ)) {
                List<Version> all = versions.get(key);
                Version latest = visible(run, key);
                int at = all.indexOf(latest);
                if (at > 0 && !Objects.equals(all.get(at - 1).value(), latest.value())) {
                    Version stale = all.get(at - 1);
                    run.pending.add(new InjectedBug(Kind.STALE_READ, run.id, latest.writer(), keyNames[key],
                            run.id + " read " + keyNames[key] + " = " + stale.value() + " although " + latest.writer()
                                    + " had committed " + latest.value()));
                    return stale.value();
                }
                return NOT_INJECTED;
            }
            boolean aborted = db.injects(Kind.ABORTED_READ);
            if (!aborted && !db.injects(Kind.INTERMEDIATE_READ)) {
                return NOT_INJECTED;
            }
            for (Run writer : open) {
                // Only a present value: an exposed delete could be explained by the initial state.
                if (writer != run && writer.writes.get(key) != null) {
                    Object dirty = writer.writes.get(key);
                    if (aborted) {
                        writer.doomed = true;
                    } else {
                        writer.mustCommit = true;
                        writer.mustOverwrite.add(key);
                    }
                    run.pending.add(new InjectedBug(aborted ? Kind.ABORTED_READ : Kind.INTERMEDIATE_READ, run.id,
                            writer.id, keyNames[key], run.id + " read " + keyNames[key] + " = " + dirty
                                    + ", an uncommitted write of " + writer.id
                                    + (aborted ? ", which then aborted" : ", which then overwrote it and committed")));
                    return dirty;
                }
            }
            return NOT_INJECTED;
        }

        private void nonRepeatable(Run run, int key, Object value) {
            List<Object> earlier = run.itemReads.computeIfAbsent(key, k -> new ArrayList<>());
            for (Object before : earlier) {
                if (!Objects.equals(before, value)) {
                    run.pending.add(new InjectedBug(Kind.NON_REPEATABLE_READ, run.id, run.id, keyNames[key],
                            run.id + " read " + keyNames[key] + " = " + before + " and later " + value));
                    break;
                }
            }
            if (!earlier.contains(value)) {
                earlier.add(value);
            }
        }

        /**
         * Whether an INSERT of {@code key} by {@code run} succeeds at once on a database with a
         * primary key: no committed row has the key, and no other open transaction has written it.
         */
        private boolean insertable(Run run, int key) {
            List<Version> all = versions.get(key);
            if (all.get(all.size() - 1).value() != null) {
                return false;
            }
            for (Run other : open) {
                if (other != run && other.writes.containsKey(key)) {
                    return false;
                }
            }
            return true;
        }

        /** The committed version the database serves to {@code run}: its snapshot's, or the latest. */
        private Version visible(Run run, int key) {
            List<Version> all = versions.get(key);
            if (db.isolation() != Isolation.SNAPSHOT_ISOLATION) {
                return all.get(all.size() - 1);
            }
            for (int i = all.size() - 1; ; i--) {
                if (all.get(i).sequence() <= run.snapshot) {
                    return all.get(i);
                }
            }
        }

        private Object project(Object value) {
            if (value instanceof Map<?, ?> row && w.partialRows() && random.nextInt(4) == 0) {
                return Map.of("v", row.get("v"));
            }
            return value;
        }

        private void predicate(Run run) {
            long range = w.valueDomain() == 0 ? nextUnique : w.valueDomain();
            long low = random.nextLong(range + 1);
            long high = low + 1 + random.nextLong(range / 2 + 1);
            Map<String, Object> rows = new LinkedHashMap<>();
            for (int key = w.plainKeys(); key < keyNames.length; key++) {
                Object value = run.writes.containsKey(key) ? run.writes.get(key) : visible(run, key).value();
                if (value instanceof Map<?, ?> row) {
                    long v = (Long) row.get("v");
                    if (v >= low && v < high) {
                        rows.put(keyNames[key], project(value));
                        if (!run.writes.containsKey(key) && db.isolation() == Isolation.READ_COMMITTED) {
                            // A row returned is a read of it: read committed may return another
                            // version than an earlier read did, or a later read may.
                            nonRepeatable(run, key, value);
                        }
                    }
                }
            }
            run.ops.add(new Op('p', null, null, "v >= " + low + " AND v < " + high, rows));
        }

        private void end(Run run) {
            open.remove(run);
            boolean commit;
            if (run.doomed) {
                commit = false;
            } else if (run.mustCommit) {
                for (int key : run.mustOverwrite) {
                    Object dirty = run.writes.get(key);
                    Object fresh;
                    do {
                        fresh = valueFor(key, nextValue());
                    } while (Objects.equals(fresh, dirty));
                    write(run, key, fresh);
                }
                commit = true;
            } else {
                commit = random.nextDouble() >= w.abortProbability() && !conflicts(run);
            }
            if (commit) {
                sequence++;
                for (Map.Entry<Integer, Object> write : run.writes.entrySet()) {
                    versions.get(write.getKey()).add(new Version(sequence, write.getValue(), run.id));
                }
                bugs.addAll(run.pending);
            }
            record(run, commit, ++clock);
        }

        /** First committer wins, unless the database loses the update (and says so). */
        private boolean conflicts(Run run) {
            if (db.isolation() != Isolation.SNAPSHOT_ISOLATION) {
                return false;
            }
            for (int key : run.writes.keySet()) {
                List<Version> all = versions.get(key);
                Version latest = all.get(all.size() - 1);
                if (latest.sequence() > run.snapshot) {
                    if (db.injects(Kind.LOST_UPDATE) && random.nextDouble() < db.bugProbability()) {
                        run.pending.add(new InjectedBug(Kind.LOST_UPDATE, run.id, latest.writer(), keyNames[key],
                                run.id + " overwrote " + keyNames[key] + " although " + latest.writer()
                                        + " committed it after " + run.id + "'s snapshot"));
                        continue;
                    }
                    return true;
                }
            }
            return false;
        }

        private void record(Run run, boolean committed, long end) {
            HistoryBuilder.TransactionBuilder t = builder.transaction(run.id).session("s" + run.session);
            for (Op op : run.ops) {
                switch (op.kind()) {
                    case 'r' -> t.read(op.key(), op.value());
                    case 'e' -> {
                        // What the recorder gets of the writes of committed transactions only.
                        if (committed) {
                            t.read(op.key(), op.value());
                        }
                    }
                    case 'w' -> t.write(op.key(), op.value());
                    default -> t.predicate(w.table(), op.where(), op.rows());
                }
            }
            if (!committed) {
                t.aborted();
            }
            if (w.recordTimes()) {
                t.times(run.start, end);
            }
        }
    }
}
